/**
 * `npm run setup [-- flags]`: from an empty AWS account to a deployable site, asking before each
 * change. docs/deploy.md ("Set up the account: npm run setup") lists the flags and exit codes.
 */
import { setupMain } from './run';

setupMain().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ npm run setup could not finish: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
