/**
 * `npm run messages [-- show ID | resend ID | resend --failed | delete ID] [--local] [--json] [--stage NAME]`:
 * the owner's view of the message archive (run.ts); `--help` lists the commands.
 */
import { runMessages } from './run';

Promise.resolve()
  .then(() => runMessages(process.argv.slice(2)))
  .then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`✗ npm run messages could not finish: ${(error as Error)?.message ?? String(error)}`);
      process.exit(1);
    },
  );
