/**
 * The local stack for the browser tests, in a process of its own, so serving pages and running the
 * handlers never competes with the test runner's own event loop.
 * Prints one JSON line {url, sesUrl} once serving; stops on SIGTERM or SIGINT.
 */
import { startLocalStack } from '../../infra/local/stack';

const stack = await startLocalStack({
  port: 0,
  sesPort: 0,
  recaptchaVerifyUrl: process.env.E2E_VERIFY_URL,
  recaptchaSecret: process.env.E2E_RECAPTCHA_SECRET,
  clientDir: process.env.E2E_CLIENT_DIR,
  pageViewsFile: process.env.E2E_PAGE_VIEWS_FILE,
  quiet: true,
  // One stack serves every browser test, all from 127.0.0.1: more real contact sends than one address
  // may make in ten minutes, and more API requests than the edge's rate rule lets one address make in
  // five. The per-address limit, the budget and the edge's rule are tested in infra/local/flood.test.ts.
  floodGuards: false,
  edgeRateRule: false,
});
process.stdout.write(`${JSON.stringify({ url: stack.url, sesUrl: stack.sesUrl })}\n`);

const stop = () => void stack.stop().finally(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
