/**
 * `npm run deploy`: the owner's one command. Checks cdk.json's "portfolio" block (a missing, malformed
 * or still-example value stops here, key named) and the AWS account (`npm run doctor`), then runs
 * `cdk deploy --all`, whose synth builds the site with the API endpoint, site key and GA id injected
 * and uploads it, and last checks the live site (`npm run smoke`). Extra arguments go to
 * `cdk deploy` (e.g. `npm run deploy -- --require-approval never` in CI).
 */
import path from 'node:path';
import { REPO_ROOT } from '../config/portfolio-config';
import { checkedConfig, runCdk } from './cdk-cli';
import { runDoctor } from './doctor/run';
import { smokeExitCode } from './smoke/run';
import { deployedSiteUrl } from './smoke/deployed-url';

const config = checkedConfig({ forDeploy: true });
// The account must be ready before a minute of build and synth: the doctor asks it, read-only.
if ((await runDoctor({ config })) !== 0) {
  console.error('Deploy stopped: fix the problems above (`npm run doctor` checks again), then `npm run deploy`.');
  process.exit(1);
}
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
  // Last: the live site, checked from outside.
  process.exit(await smokeExitCode(deployedSiteUrl(outputs, config.stackName)));
}
process.exit(status);
