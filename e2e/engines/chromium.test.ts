import { describeVisitorFlows } from './flows';
import { describePostFlows } from './post-flows';

describeVisitorFlows('chromium');
describePostFlows('chromium');
