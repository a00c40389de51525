/** `npm run destroy`: see run.ts. */
import { runCommand } from '../kit/command';
import { runDestroy, USAGE } from './run';

runCommand({ name: 'destroy', usage: USAGE, run: runDestroy });
