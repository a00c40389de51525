/**
 * `npm run setup [-- flags]`: from an empty AWS account to a deployable site, asking before each
 * change. docs/deploy.md ("Set up the account: npm run setup") lists the flags and exit codes.
 */
import { runCommand } from '../kit/command';
import { setupMain, USAGE } from './run';

runCommand({ name: 'setup', usage: USAGE, run: setupMain });
