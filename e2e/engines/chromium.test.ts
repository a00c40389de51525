import { afterAll } from 'vitest';
import { stopSharedEngine } from './engine';
import { describeVisitorFlows } from './flows';
import { describePostFlows } from './post-flows';
import { describeRightToLeftFlows } from './rtl-flows';

describeVisitorFlows('chromium');
describePostFlows('chromium');
describeRightToLeftFlows('chromium');
afterAll(stopSharedEngine);
