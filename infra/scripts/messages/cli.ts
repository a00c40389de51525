/** `npm run messages`: see run.ts. */
import { runCommand } from '../kit/command';
import { messagesCommand, USAGE } from './run';

runCommand({ name: 'messages', usage: USAGE, run: (argv) => messagesCommand(argv) });
