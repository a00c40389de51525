/** `npm run doctor`: see run.ts. */
import { runCommand } from '../kit/command';
import { doctorCommand, USAGE } from './run';

runCommand({ name: 'doctor', usage: USAGE, run: doctorCommand });
