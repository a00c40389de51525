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
 * `--assembly DIR`: deploys a cloud assembly synthesized earlier (`npm run synth -- --for-deploy`, in a
 * job that holds no AWS token) as it is: doctor, `cdk deploy --app DIR`, smoke; nothing is built here.
 * It is checked first (assembly.ts): an assembly holding anything this app does not make is refused
 * before any AWS call.
 */
import path from 'node:path';
import { cloudFrontPlanOf, type PortfolioConfig, previewCloudFrontPlanOf, REPO_ROOT, trialNotice } from '../../config/portfolio-config';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { checkedConfig, contextArgs, hasNpmScript, parseScriptArgs, runCdk, runNpmScript } from '../kit/cdk';
import { CommandError, EXIT } from '../kit/command';
import { parseFlags } from '../kit/flags';
import {
  deployedPlanSubscriptions,
  deployedSiteUrl,
  planApprovalNote,
  planSubscriptionsFromOutputsFile,
  siteUrlFromOutputsFile,
} from '../kit/stack-outputs';
import { assemblyProblems, expectedOf } from './assembly';

export const USAGE = 'Usage: npm run deploy [-- --stage NAME] [--trial] [cdk deploy options]';

/** The address to build the site with: the custom domain, else the deployed stack's SiteUrl, else unknown yet. */
export async function siteUrlForDeploy(config: PortfolioConfig, lookup = deployedSiteUrl): Promise<string | undefined> {
  if (config.siteUrl) return config.siteUrl;
  return lookup(config.stackName, config.region);
}

const DEPLOY_FLAGS = { assembly: { type: 'string' } } as const;
/** Where `cdk deploy --outputs-file` writes the stacks' outputs. */
const OUTPUTS = path.join(REPO_ROOT, 'cdk.out', 'outputs.json');

export async function runDeploy(argv: readonly string[]): Promise<number> {
  const { values, rest: cdkArgv } = parseFlags(argv, DEPLOY_FLAGS, { passThrough: true });
  const assembly = values.assembly as string | undefined;
  const args = parseScriptArgs(cdkArgv);
  const config = checkedConfig({ forDeploy: true, args });
  const stageArgs = config.stage ? ['--stage', config.stage] : [];
  const notice = trialNotice(config);
  if (notice) console.error(`\n${notice}\n`);
  // A built assembly is checked before the doctor's first AWS call: it may come from a job that ran
  // code this one does not trust (assembly.ts).
  if (assembly !== undefined) refuseForeignAssembly(config, assembly);

  // Hook: read-only checks of the configuration and the AWS account before anything is built.
  if (hasNpmScript('doctor')) {
    const status = runNpmScript('doctor', [...stageArgs, ...(config.trial ? ['--trial'] : [])]);
    if (status !== EXIT.done) {
      console.error('npm run doctor found problems: nothing was deployed.');
      return EXIT.failed;
    }
  }

  if (assembly !== undefined) return deployAssembly(config, assembly, args.rest);

  let siteUrl = await siteUrlForDeploy(config);
  console.error(
    `Deploying ${config.stackName}${config.stage ? ` (stage ${config.stage})` : ''} to ${config.region}` +
      (siteUrl ? ` at ${siteUrl}` : ' (first deploy: its CloudFront address is learned, then the site is built with it)') +
      '. The site is built during synth.',
  );
  const started = Date.now();
  const deploy = (url: string | undefined) =>
    runCdk(['deploy', '--all', '--outputs-file', OUTPUTS, ...contextArgs(config, url), ...args.rest]);

  let status = deploy(siteUrl);
  if (status === 0 && !siteUrl) {
    siteUrl = siteUrlFromOutputsFile(OUTPUTS, config.stackName) ?? (await deployedSiteUrl(config.stackName, config.region));
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
  console.error(`Deployed ${siteUrl} in ${minutes} min. Outputs (SiteUrl, DashboardUrl, …) are in ${path.relative(REPO_ROOT, OUTPUTS)}.`);
  printPlanApproval(config);

  // Hook: an outside-in check of the live site.
  if (hasNpmScript('smoke') && siteUrl) return runNpmScript('smoke', [siteUrl]) === EXIT.done ? EXIT.done : EXIT.failed;
  return EXIT.done;
}

/** Throws, naming each problem, unless the assembly holds only what this commit's app makes. */
function refuseForeignAssembly(config: PortfolioConfig, assembly: string): void {
  const problems = assemblyProblems(path.resolve(assembly), expectedOf(config));
  if (problems.length > 0) {
    throw new CommandError(
      `The assembly in ${assembly} holds what this app does not make; nothing was deployed:\n  - ${problems.join('\n  - ')}`,
    );
  }
}

/** Deploys a synthesized assembly as built (its site already carries its address), then the smoke test. */
function deployAssembly(config: PortfolioConfig, assembly: string, cdkArgs: string[]): number {
  console.error(
    `Deploying ${config.stackName} to ${config.region} from the assembly in ${assembly} (built earlier; nothing is built here).`,
  );
  if (runCdk(['deploy', '--all', '--app', assembly, '--outputs-file', OUTPUTS, ...cdkArgs]) !== 0) return EXIT.failed;
  const siteUrl = siteUrlFromOutputsFile(OUTPUTS, config.stackName);
  if (!siteUrl)
    throw new CommandError(`The stack deployed but ${path.relative(REPO_ROOT, OUTPUTS)} has no ${STACK_OUTPUT_KEYS.siteUrl} output.`);
  console.error(`Deployed ${siteUrl}.`);
  printPlanApproval(config);
  if (hasNpmScript('smoke')) return runNpmScript('smoke', [siteUrl]) === EXIT.done ? EXIT.done : EXIT.failed;
  return EXIT.done;
}

/** On a paid plan, how to approve its subscriptions (kit/stack-outputs.ts says why the deploy does not). */
function printPlanApproval(config: PortfolioConfig): void {
  const subscriptions = deployedPlanSubscriptions(planSubscriptionsFromOutputsFile(OUTPUTS, config.stackName), {
    site: cloudFrontPlanOf(config),
    previews: previewCloudFrontPlanOf(config),
  });
  const note = planApprovalNote(subscriptions);
  if (note) console.error(`\n${note}\n`);
}
