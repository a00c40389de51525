/** `npm run doctor`: read-only checks of cdk.json and the AWS account; exit 0 when ready to deploy. */
import { runDoctor } from './run';

runDoctor().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ npm run doctor could not finish: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
