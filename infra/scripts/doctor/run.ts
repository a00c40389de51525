/**
 * The doctor with real AWS clients: reads cdk.json's "portfolio" block, asks the account, prints the
 * table. Used by `npm run doctor` (doctor/cli.ts) and by `npm run deploy` before anything is built.
 */
import { ACMClient } from '@aws-sdk/client-acm';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { Route53Client } from '@aws-sdk/client-route-53';
import { Route53DomainsClient } from '@aws-sdk/client-route-53-domains';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { SSMClient } from '@aws-sdk/client-ssm';
import { STSClient } from '@aws-sdk/client-sts';
import { Resolver, resolveNs } from 'node:dns/promises';
import {
  ConfigError,
  deployReadinessProblems,
  loadConfigFromCdkJson,
  type PortfolioConfig,
  RECAPTCHA_TEST_SITE_KEY,
} from '../../config/portfolio-config';
import { exitCode, formatTable, type CheckResult } from '../report';
import { CERTIFICATE_REGION, runChecks, type DoctorClients } from './checks';

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

export function awsClients(region: string): DoctorClients {
  // The SDK's notice about the Node version on the owner's laptop says nothing about the site.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  const options = { region, maxAttempts: 2 };
  return {
    sts: new STSClient(options),
    sesv2: new SESv2Client(options),
    ssm: new SSMClient(options),
    cloudFormation: (r) => new CloudFormationClient({ ...options, region: r }),
    route53: new Route53Client({ ...options, region: CERTIFICATE_REGION }),
    route53Domains: new Route53DomainsClient({ ...options, region: CERTIFICATE_REGION }),
    acm: new ACMClient({ ...options, region: CERTIFICATE_REGION }),
    resolveNs: nameServerLookup(),
  };
}

/** The configuration rows: values that offline synth accepts but a real deploy must not ship. */
export function configurationResults(config: PortfolioConfig): CheckResult[] {
  const problems = deployReadinessProblems(config);
  const results: CheckResult[] = [
    problems.length === 0
      ? { check: 'Configuration', status: 'pass', detail: `stack ${config.stackName} in ${config.region}${config.domain ? ` at ${config.domain.domainName}` : ''}` }
      : {
          check: 'Configuration',
          status: 'fail',
          detail: problems.join('; '),
          fix: '`npm run setup` asks for your addresses and keys and writes them; by hand: edit cdk.json (context.portfolio); docs/deploy.md ("Configure") explains every key.',
        },
  ];
  if (config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY) {
    results.push({
      check: 'reCAPTCHA site key',
      status: 'warn',
      detail: "Google's public test key: the captcha accepts everyone and shows a test banner",
      fix:
        '`npm run setup` asks for your keys and stores them (asking first); by hand: register the site at ' +
        'https://www.google.com/recaptcha/admin (v2 checkbox; the key lands in a Google Cloud project, whose 10,000 free ' +
        'requests a month all its keys share), put its site key in cdk.json and its legacy secret key in SSM (docs/deploy.md, Prerequisites).',
    });
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
      print(`✗ ${error.message}\n  → Edit cdk.json (docs/deploy.md, "Configure", explains every key).`);
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
