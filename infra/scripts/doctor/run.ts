/**
 * `npm run doctor [-- --stage NAME] [-- --trial]`: read-only checks of cdk.json and the AWS account;
 * exit 0 when ready to deploy. The flags mean what they mean for `npm run deploy`. The doctor with
 * real AWS clients: reads cdk.json's "portfolio" block, asks the account, prints the table. Used by
 * `npm run doctor` (doctor/cli.ts), by `npm run deploy` before anything is built, and by `npm run setup`.
 */
import { BudgetsClient } from '@aws-sdk/client-budgets';
import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { ACMClient } from '@aws-sdk/client-acm';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient } from '@aws-sdk/client-cloudwatch';
import { Route53Client } from '@aws-sdk/client-route-53';
import { Route53DomainsClient } from '@aws-sdk/client-route-53-domains';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { Resolver, resolveNs, resolveTxt } from 'node:dns/promises';
import {
  CLOUDFRONT_CERTIFICATE_REGION,
  ConfigError,
  deployReadinessProblems,
  loadConfigFromCdkJson,
  type PortfolioConfig,
  RECAPTCHA_TEST_SITE_KEY,
} from '../../config/portfolio-config';
import { awsClient } from '../kit/aws';
import { overridesOf, STAGE_FLAGS } from '../kit/cdk';
import { CONFIG_HINT } from '../kit/command';
import { parseFlags } from '../kit/flags';
import { exitCode, formatTable, row, type CheckResult } from '../report';
import { runChecks, type DoctorClients } from './checks';

/**
 * Public DNS's answer for a domain's name servers: the system resolver, or the DNS server named by
 * PORTFOLIO_DNS_SERVER (host:port; the spawning tests' fake, tools/fake-aws.ts), as AWS_ENDPOINT_URL
 * points the SDK at the fake AWS.
 */
export function nameServerLookup(server = process.env.PORTFOLIO_DNS_SERVER): (domain: string) => Promise<string[]> {
  if (!server) return resolveNs;
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server]);
  return (domain) => resolver.resolveNs(domain);
}

/** Public DNS's TXT records for a name (a sender domain's DMARC policy), through the same server as nameServerLookup. */
export function txtLookup(server = process.env.PORTFOLIO_DNS_SERVER): (name: string) => Promise<string[][]> {
  if (!server) return resolveTxt;
  const resolver = new Resolver({ timeout: 2_000, tries: 1 });
  resolver.setServers([server]);
  return (name) => resolver.resolveTxt(name);
}

export function awsClients(region: string): DoctorClients {
  const global = { region: CLOUDFRONT_CERTIFICATE_REGION };
  return {
    sts: awsClient(STSClient, { region }),
    sesv2: awsClient(SESv2Client, { region }),
    ssm: awsClient(SSMClient, { region }),
    cloudFormation: (r) => awsClient(CloudFormationClient, { region: r }),
    cloudWatch: awsClient(CloudWatchClient, { region }),
    route53: awsClient(Route53Client, global),
    route53Domains: awsClient(Route53DomainsClient, global),
    acm: awsClient(ACMClient, global),
    budgets: awsClient(BudgetsClient, global),
    apiGateway: awsClient(ApiGatewayV2Client, { region }),
    resolveNs: nameServerLookup(),
    resolveTxt: txtLookup(),
  };
}

export const USAGE = 'Usage: npm run doctor [-- --stage NAME] [--trial]';

/** `npm run doctor`'s command line: only --stage and --trial (anything else is a usage error, not ignored). */
export function doctorCommand(argv: readonly string[], options: Parameters<typeof runDoctor>[0] = {}): Promise<number> {
  const { values } = parseFlags(argv, STAGE_FLAGS);
  return runDoctor({ ...options, overrides: overridesOf({ stage: values.stage as string | undefined, trial: values.trial === true }) });
}

/** The configuration rows: values that offline synth accepts but a real deploy must not ship. */
export function configurationResults(config: PortfolioConfig): CheckResult[] {
  const problems = deployReadinessProblems(config);
  const at = config.domain ? ` at ${config.domain.domainName}` : '';
  const configure =
    '`npm run setup` asks for your addresses and keys and writes them; by hand: edit cdk.json (context.portfolio); docs/deploy.md ("Configure") explains every key.';
  const results = [
    problems.length === 0
      ? row('Configuration', 'pass', `stack ${config.stackName} in ${config.region}${at}`)
      : row('Configuration', 'fail', problems.join('; '), configure),
  ];
  if (config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY) {
    const fix =
      '`npm run setup` asks for your keys and stores them (asking first); by hand: register the site at ' +
      'https://www.google.com/recaptcha/admin (v2 checkbox; the key lands in a Google Cloud project, whose 10,000 free ' +
      'requests a month all its keys share), put its site key in cdk.json and its legacy secret key in SSM (docs/deploy.md, Prerequisites).';
    results.push(row('reCAPTCHA site key', 'warn', "Google's public test key: the captcha accepts everyone and shows a test banner", fix));
  }
  return results;
}

/**
 * Runs every check and prints the table (or the one no-credentials line) to `print`.
 * Returns the exit code: 0 when nothing failed. `config` defaults to cdk.json's.
 */
export async function runDoctor(
  options: {
    config?: PortfolioConfig;
    /** Overrides of cdk.json's block (the --stage and --trial flags), when `config` is not given. */
    overrides?: Record<string, unknown>;
    clients?: DoctorClients;
    print?: (text: string) => void;
  } = {},
): Promise<number> {
  const print = options.print ?? ((text: string) => console.log(text));
  let config: PortfolioConfig;
  try {
    config = options.config ?? loadConfigFromCdkJson(undefined, options.overrides ?? {});
  } catch (error) {
    if (error instanceof ConfigError) {
      print(`✗ ${error.message}\n  → ${CONFIG_HINT}`);
      return 1;
    }
    throw error;
  }
  const outcome = await runChecks(config, options.clients ?? awsClients(config.region));
  if (outcome.kind === 'no-credentials') {
    print(outcome.message);
    return 1;
  }
  const results = [...configurationResults(config), ...outcome.results];
  print(formatTable(results, `npm run doctor: ${config.stackName} in ${config.region}, account ${outcome.account || '?'} (read-only)`));
  return exitCode(results);
}
