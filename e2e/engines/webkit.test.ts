import { describeVisitorFlows } from './flows';

describeVisitorFlows('webkit');
