/**
 * `npm run synth [-- --stage NAME] [-- --trial]`: checks the configuration, builds the site (asset
 * bundling) and synthesizes the CloudFormation templates into cdk.out with cdk-nag on, offline and
 * without AWS credentials. Other arguments go to `cdk synth` (e.g. `npm run synth -- --quiet`).
 */
import { checkedConfig, contextArgs, parseScriptArgs, runCdk } from '../kit/cdk';
import { EXIT } from '../kit/command';

export const USAGE = 'Usage: npm run synth [-- --stage NAME] [--trial] [cdk synth options]';

export function runSynth(argv: readonly string[]): number {
  const args = parseScriptArgs(argv);
  const config = checkedConfig({ forDeploy: false, args });
  const started = process.hrtime.bigint();
  const offline = {
    // Without credentials the CLI leaves the account unset: the stack then uses AWS::AccountId.
    // Never probe the EC2 instance metadata service for credentials (it hangs off AWS).
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_REGION: process.env.AWS_REGION ?? config.region,
  };
  const status = runCdk(['synth', ...contextArgs(config), ...args.rest], offline);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.error(`${status === 0 ? 'Synthesized' : 'Synth FAILED'} in ${seconds.toFixed(1)} s (stack ${config.stackName}, ${config.region}).`);
  return status === 0 ? EXIT.done : EXIT.failed;
}
