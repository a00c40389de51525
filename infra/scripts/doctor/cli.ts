/**
 * `npm run doctor [-- --stage NAME] [-- --trial]`: read-only checks of cdk.json and the AWS account;
 * exit 0 when ready to deploy. The flags mean what they mean for `npm run deploy`.
 */
import { overridesOf, parseScriptArgs } from '../cdk-cli';
import { runDoctor } from './run';

Promise.resolve()
  .then(() => runDoctor({ overrides: overridesOf(parseScriptArgs(process.argv.slice(2))) }))
  .then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`✗ npm run doctor could not finish: ${(error as Error)?.message ?? String(error)}`);
      process.exit(1);
    },
  );
