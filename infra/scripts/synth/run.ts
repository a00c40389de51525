/**
 * `npm run synth [-- --stage NAME] [-- --trial]`: checks the configuration, builds the site (asset
 * bundling) and synthesizes the CloudFormation templates into cdk.out with cdk-nag on, offline and
 * without AWS credentials. Other arguments go to `cdk synth` (e.g. `npm run synth -- --quiet`).
 * `--for-deploy --site-url URL`: the assembly a deploy will use as built (deploy.yml's build job, which
 * holds no AWS token): the configuration checked as for a deploy, the site built with its address
 * (the custom domain's, else URL: the stack's SiteUrl, which github-setup prints as SITE_URL).
 */
import { checkedConfig, contextArgs, parseScriptArgs, runCdk } from '../kit/cdk';
import { EXIT, UsageError } from '../kit/command';
import { parseFlags } from '../kit/flags';

export const USAGE = 'Usage: npm run synth [-- --stage NAME] [--trial] [--for-deploy [--site-url URL]] [cdk synth options]';

const SYNTH_FLAGS = { 'for-deploy': { type: 'boolean' }, 'site-url': { type: 'string' } } as const;

/** The address the site is built with for a deploy's assembly: the domain's, else an https URL given. */
export function siteUrlForAssembly(domainUrl: string, given: string | undefined): string {
  if (domainUrl) return domainUrl;
  const text = (given ?? '').trim();
  if (!/^https:\/\/[a-z0-9.-]+(?::\d+)?$/i.test(text)) {
    throw new UsageError(
      `--site-url is "${text}": the site's https address with no path (the stack's SiteUrl output; npm run github-setup ` +
        'prints it as the SITE_URL variable once the stack is deployed)',
    );
  }
  return text;
}

export function runSynth(argv: readonly string[]): number {
  const { values, rest: cdkArgv } = parseFlags(argv, SYNTH_FLAGS, { passThrough: true });
  const forDeploy = values['for-deploy'] === true;
  const args = parseScriptArgs(cdkArgv);
  const config = checkedConfig({ forDeploy, args });
  const siteUrl = forDeploy ? siteUrlForAssembly(config.siteUrl, values['site-url'] as string | undefined) : '';
  const started = process.hrtime.bigint();
  const offline = {
    // Without credentials the CLI leaves the account unset: the stack then uses AWS::AccountId.
    // Never probe the EC2 instance metadata service for credentials (it hangs off AWS).
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_REGION: process.env.AWS_REGION ?? config.region,
  };
  const status = runCdk(['synth', ...contextArgs(config, siteUrl), ...args.rest], offline);
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  console.error(
    `${status === 0 ? 'Synthesized' : 'Synth FAILED'} in ${seconds.toFixed(1)} s (stack ${config.stackName}, ${config.region}).`,
  );
  return status === 0 ? EXIT.done : EXIT.failed;
}
