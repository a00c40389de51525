import { describeVisitorFlows } from './flows';
import { describeRightToLeftFlows } from './rtl-flows';

describeVisitorFlows('chromium');
describeRightToLeftFlows('chromium');
