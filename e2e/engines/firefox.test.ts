import { describeVisitorFlows } from './flows';

describeVisitorFlows('firefox');
