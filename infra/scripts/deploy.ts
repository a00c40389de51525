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
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type PortfolioConfig, REPO_ROOT, trialNotice } from '../config/portfolio-config';
import { checkedConfig, contextArgs, hasNpmScript, parseScriptArgs, runCdk, runNpmScript } from './cdk-cli';
import { deployedSiteUrl } from './stack-outputs';

export type SiteUrlLookup = (stackName: string, region: string) => Promise<string | undefined>;

/** The address to build the site with: the custom domain, else the deployed stack's SiteUrl, else unknown yet. */
export async function siteUrlForDeploy(config: PortfolioConfig, lookup: SiteUrlLookup = deployedSiteUrl): Promise<string | undefined> {
  if (config.siteUrl) return config.siteUrl;
  return lookup(config.stackName, config.region);
}

/** SiteUrl of a stack in a `cdk deploy --outputs-file` file, if there. */
export function siteUrlFromOutputsFile(file: string, stackName: string): string | undefined {
  try {
    const outputs = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, string>>;
    return outputs[stackName]?.SiteUrl?.replace(/\/+$/, '') || undefined;
  } catch {
    return undefined;
  }
}

async function main(): Promise<number> {
  const args = parseScriptArgs(process.argv.slice(2));
  const config = checkedConfig({ forDeploy: true, args });
  const stageArgs = config.stage ? ['--stage', config.stage] : [];
  const notice = trialNotice(config);
  if (notice) console.error(`\n${notice}\n`);

  // Hook: read-only checks of the configuration and the AWS account before anything is built.
  if (hasNpmScript('doctor')) {
    const status = runNpmScript('doctor', [...stageArgs, ...(config.trial ? ['--trial'] : [])]);
    if (status !== 0) {
      console.error('npm run doctor found problems: nothing was deployed.');
      return status;
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
      console.error(`The stack deployed but has no SiteUrl output: run npm run deploy${stageArgs.length ? ` -- ${stageArgs.join(' ')}` : ''} again.`);
      return 1;
    }
    console.error(`The site lives at ${siteUrl}: building and uploading it again with that address.`);
    status = deploy(siteUrl);
  }
  if (status !== 0) return status;
  const minutes = ((Date.now() - started) / 60000).toFixed(1);
  console.error(`Deployed ${siteUrl} in ${minutes} min. Outputs (SiteUrl, DashboardUrl, …) are in ${path.relative(REPO_ROOT, outputs)}.`);

  // Hook: an outside-in check of the live site.
  if (hasNpmScript('smoke') && siteUrl) return runNpmScript('smoke', [siteUrl]);
  return 0;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().then(
    (status) => process.exit(status),
    (error: unknown) => {
      console.error(`npm run deploy failed: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
