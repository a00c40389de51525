import { describeVisitorFlows } from './flows';
import { describePostFlows } from './post-flows';

describeVisitorFlows('webkit');
describePostFlows('webkit');
