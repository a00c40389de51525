/**
 * `npm run synth`: checks the configuration, builds the site (asset bundling) and synthesizes the
 * CloudFormation templates into cdk.out with cdk-nag on, offline and without AWS credentials.
 * Extra arguments go to `cdk synth` (e.g. `npm run synth -- --quiet`).
 */
import { checkedConfig, runCdk } from './cdk-cli';

const config = checkedConfig({ forDeploy: false });
const started = process.hrtime.bigint();
const offline = {
  // Without credentials the CLI leaves the account unset: the stack then uses AWS::AccountId.
  // Never probe the EC2 instance metadata service for credentials (it hangs off AWS).
  AWS_EC2_METADATA_DISABLED: 'true',
  AWS_REGION: process.env.AWS_REGION ?? config.region,
};
const status = runCdk(['synth', ...process.argv.slice(2)], offline);
const seconds = Number(process.hrtime.bigint() - started) / 1e9;
console.error(`${status === 0 ? 'Synthesized' : 'Synth FAILED'} in ${seconds.toFixed(1)} s (stack ${config.stackName}, ${config.region}).`);
process.exit(status);
