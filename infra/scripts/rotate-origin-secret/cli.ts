/** `npm run rotate-origin-secret`: see run.ts. */
import { runCommand } from '../kit/command';
import { rotateCommand, USAGE } from './run';

runCommand({ name: 'rotate-origin-secret', usage: USAGE, run: (argv) => rotateCommand(argv) });
