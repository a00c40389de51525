import { describeVisitorFlows } from './flows';
import { describePostFlows } from './post-flows';

describeVisitorFlows('firefox');
describePostFlows('firefox');
