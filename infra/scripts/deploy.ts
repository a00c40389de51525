/**
 * `npm run deploy`: the owner's one command. Checks cdk.json's "portfolio" block (a missing, malformed
 * or still-example value stops here, key named), then runs `cdk deploy --all`, whose synth builds the
 * site with the API endpoint, site key and GA id injected and uploads it. Extra arguments go to
 * `cdk deploy` (e.g. `npm run deploy -- --require-approval never` in CI).
 */
import path from 'node:path';
import { REPO_ROOT } from '../config/portfolio-config';
import { checkedConfig, runCdk } from './cdk-cli';

const config = checkedConfig({ forDeploy: true });
console.error(
  `Deploying ${config.stackName} to ${config.region}` +
    (config.domain ? ` at https://${config.domain.domainName}` : ' (CloudFront domain)') +
    '. The site is built during synth.',
);
const started = Date.now();
const outputs = path.join(REPO_ROOT, 'cdk.out', 'outputs.json');
const status = runCdk(['deploy', '--all', '--outputs-file', outputs, ...process.argv.slice(2)]);
const minutes = ((Date.now() - started) / 60000).toFixed(1);
if (status === 0) {
  console.error(`Deployed in ${minutes} min. Outputs (SiteUrl, DashboardUrl, …) are in ${path.relative(REPO_ROOT, outputs)}.`);
}
process.exit(status);
