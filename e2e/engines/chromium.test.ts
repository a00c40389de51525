import { describeVisitorFlows } from './flows';

describeVisitorFlows('chromium');
