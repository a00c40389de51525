import { describeVisitorFlows } from './flows';
import { describeRightToLeftFlows } from './rtl-flows';

describeVisitorFlows('webkit');
describeRightToLeftFlows('webkit');
