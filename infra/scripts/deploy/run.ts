/**
 * `npm run deploy [-- --stage NAME] [-- --trial]`: the owner's one command.
 *  1. checks cdk.json's "portfolio" block (a missing, malformed or still-example value stops here, key
 *     named; Google's test reCAPTCHA key too, unless this is a trial deploy);
 *  2. runs `npm run doctor` when the project has it (read-only checks of the configuration and account);
 *  3. `cdk deploy --all`, whose synth builds the site with the endpoint, keys and the site's real address
 *     (VITE_SITE_URL) injected. The address is the custom domain, or the stack's SiteUrl output (its
 *     CloudFront domain). On the very first deploy that output does not exist yet: the stack is deployed,
 *     its SiteUrl read, and the site deployed again with it, so canonical links, OpenGraph, sitemap.xml
 *     and robots.txt never keep a placeholder (the second pass changes only the uploaded files);
 *  4. runs `npm run smoke -- URL` against the live site when the project has it.
 * Other arguments go to `cdk deploy` (e.g. `npm run deploy -- --require-approval never` in CI).
 */
import path from 'node:path';
import { type PortfolioConfig, REPO_ROOT, trialNotice } from '../../config/portfolio-config';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { checkedConfig, contextArgs, hasNpmScript, parseScriptArgs, runCdk, runNpmScript } from '../kit/cdk';
import { CommandError, EXIT } from '../kit/command';
import { deployedSiteUrl, siteUrlFromOutputsFile } from '../kit/stack-outputs';

export const USAGE = 'Usage: npm run deploy [-- --stage NAME] [--trial] [cdk deploy options]';

export type SiteUrlLookup = (stackName: string, region: string) => Promise<string | undefined>;

/** The address to build the site with: the custom domain, else the deployed stack's SiteUrl, else unknown yet. */
export async function siteUrlForDeploy(config: PortfolioConfig, lookup: SiteUrlLookup = deployedSiteUrl): Promise<string | undefined> {
  if (config.siteUrl) return config.siteUrl;
  return lookup(config.stackName, config.region);
}

export async function runDeploy(argv: readonly string[]): Promise<number> {
  const args = parseScriptArgs(argv);
  const config = checkedConfig({ forDeploy: true, args });
  const stageArgs = config.stage ? ['--stage', config.stage] : [];
  const notice = trialNotice(config);
  if (notice) console.error(`\n${notice}\n`);

  // Hook: read-only checks of the configuration and the AWS account before anything is built.
  if (hasNpmScript('doctor')) {
    const status = runNpmScript('doctor', [...stageArgs, ...(config.trial ? ['--trial'] : [])]);
    if (status !== EXIT.done) {
      console.error('npm run doctor found problems: nothing was deployed.');
      return EXIT.failed;
    }
  }

  let siteUrl = await siteUrlForDeploy(config);
  console.error(
    `Deploying ${config.stackName}${config.stage ? ` (stage ${config.stage})` : ''} to ${config.region}` +
      (siteUrl ? ` at ${siteUrl}` : ' (first deploy: its CloudFront address is learned, then the site is built with it)') +
      '. The site is built during synth.',
  );
  const started = Date.now();
  const outputs = path.join(REPO_ROOT, 'cdk.out', 'outputs.json');
  const deploy = (url: string | undefined) =>
    runCdk(['deploy', '--all', '--outputs-file', outputs, ...contextArgs(config, url), ...args.rest]);

  let status = deploy(siteUrl);
  if (status === 0 && !siteUrl) {
    siteUrl = siteUrlFromOutputsFile(outputs, config.stackName) ?? (await deployedSiteUrl(config.stackName, config.region));
    if (!siteUrl) {
      throw new CommandError(
        `The stack deployed but has no ${STACK_OUTPUT_KEYS.siteUrl} output: run npm run deploy${stageArgs.length ? ` -- ${stageArgs.join(' ')}` : ''} again.`,
      );
    }
    console.error(`The site lives at ${siteUrl}: building and uploading it again with that address.`);
    status = deploy(siteUrl);
  }
  if (status !== 0) return EXIT.failed;
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.error(`Deployed ${siteUrl} in ${minutes} min. Outputs (SiteUrl, DashboardUrl, …) are in ${path.relative(REPO_ROOT, outputs)}.`);

  // Hook: an outside-in check of the live site.
  if (hasNpmScript('smoke') && siteUrl) return runNpmScript('smoke', [siteUrl]) === EXIT.done ? EXIT.done : EXIT.failed;
  return EXIT.done;
}
