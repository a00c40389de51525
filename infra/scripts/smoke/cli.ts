/** `npm run smoke -- URL`: see run.ts. */
import { runCommand } from '../kit/command';
import { smokeCommand, USAGE } from './run';

runCommand({ name: 'smoke', usage: USAGE, run: smokeCommand });
