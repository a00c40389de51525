/**
 * POST /api/contact, the Lambda entry point. The request checks live in request.ts, the flow
 * (validate → verify captcha → send) in flow.ts, the AWS clients' set-up in clients.ts.
 */
import type { ContactHandler } from './flow';
import { createContactHandlerFromEnv } from './clients';

let coldStartHandler: ContactHandler | undefined;

/** The Lambda entry point. The environment is read on the first invocation, never at import. */
export const handler: ContactHandler = (event, context) => {
  coldStartHandler ??= createContactHandlerFromEnv();
  return coldStartHandler(event, context);
};
