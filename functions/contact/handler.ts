/**
 * POST /api/contact, the Lambda entry point. The request checks live in request.ts, the flow
 * (validate → verify captcha → send) in flow.ts, the AWS clients' set-up in clients.ts.
 */
import type { ContactHandler } from './flow';
import { createContactHandlerFromEnv } from './clients';
import { lazyHandler } from '../shared/entry';

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler: ContactHandler = lazyHandler(createContactHandlerFromEnv);
