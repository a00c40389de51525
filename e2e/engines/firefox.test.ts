import { describeVisitorFlows } from './flows';
import { describeRightToLeftFlows } from './rtl-flows';

describeVisitorFlows('firefox');
describeRightToLeftFlows('firefox');
