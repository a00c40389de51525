/** `npm run deploy`: see run.ts. */
import { runCommand } from '../kit/command';
import { runDeploy, USAGE } from './run';

runCommand({ name: 'deploy', usage: USAGE, run: runDeploy });
