/**
 * `npm run doctor`'s checks: read-only questions to the owner's AWS account, each answered with a
 * result row and, for a problem, the exact command or console step that fixes it. The clients are
 * passed in (tests fake them at the SDK boundary); nothing here changes anything in the account, and
 * the reCAPTCHA secret's value is never read (DescribeParameters returns metadata only).
 */
import { type ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import type { BudgetsClient } from '@aws-sdk/client-budgets';
import type { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { CloudFormationClient, DescribeStacksCommand, paginateListStackResources } from '@aws-sdk/client-cloudformation';
import { type CloudWatchClient, DescribeAlarmsCommand, type MetricAlarm } from '@aws-sdk/client-cloudwatch';
import { GetHostedZoneCommand, ListHostedZonesByNameCommand, type Route53Client } from '@aws-sdk/client-route-53';
import { GetDomainDetailCommand, type Route53DomainsClient } from '@aws-sdk/client-route-53-domains';
import { GetAccountCommand, GetEmailIdentityCommand, type SESv2Client } from '@aws-sdk/client-sesv2';
import { DescribeParametersCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, type STSClient } from '@aws-sdk/client-sts';
import {
  CLOUDFRONT_CERTIFICATE_REGION,
  isRoute53Domain,
  liveStackName,
  type PortfolioConfig,
  type Route53Domain,
  usesTestRecaptcha,
} from '../../config/portfolio-config';
import { boundaryPolicyName } from '../../lib/deploy-fence';
import { errorName, errorText, isNoCredentials, isStackMissing } from '../kit/aws';
import { type CheckResult, row, unreadable } from '../report';
import { CAPTCHA_ALARM_ID } from '../../shared/stack-output-keys';
import { checkBudget } from './budget';
import { checkBreakers } from './breakers';

export interface DoctorClients {
  sts: STSClient;
  /** In the configured region. */
  sesv2: SESv2Client;
  /** In the configured region. */
  ssm: SSMClient;
  cloudFormation: (region: string) => CloudFormationClient;
  route53: Route53Client;
  /**
   * Route 53 Domains answers in us-east-1 only. Source: AWS General Reference, "Amazon Route 53
   * endpoints and quotas", domain registration: https://docs.aws.amazon.com/general/latest/gr/r53.html
   */
  route53Domains: Route53DomainsClient;
  /** In us-east-1, where CloudFront's certificates live (an external-DNS domain's certificate). */
  acm: ACMClient;
  /** The name servers public DNS lists for a domain (delegation of domains registered elsewhere). */
  resolveNs: (domain: string) => Promise<string[]>;
  /** TXT records public DNS gives for a name (a sender domain's DMARC policy); absent: not looked up. */
  resolveTxt?: (name: string) => Promise<string[][]>;
  /** In the configured region: the deployed stack's reCAPTCHA alarm; absent: not looked up. */
  cloudWatch?: CloudWatchClient;
  /** AWS Budgets, called in us-east-1: the account's cost budget; absent: not looked up. */
  budgets?: BudgetsClient;
  /** In the configured region: the deployed API's stage (its route breakers); absent: not looked up. */
  apiGateway?: ApiGatewayV2Client;
}

export type DoctorOutcome = { kind: 'no-credentials'; message: string } | { kind: 'checked'; account: string; results: CheckResult[] };

/**
 * The oldest bootstrap stack the synthesized templates accept: aws-cdk-lib's CheckBootstrapVersion
 * rule refuses older ones (infra/lib/cdk-facts.test.ts reads the rule from a synthesized template).
 */
export const MIN_BOOTSTRAP_VERSION = 6;
const TOOLKIT_STACK = 'CDKToolkit';
/** States in which the bootstrap stack's bucket and roles are in place. */
const USABLE_STACK_STATUS = new Set(['CREATE_COMPLETE', 'UPDATE_COMPLETE', 'UPDATE_ROLLBACK_COMPLETE', 'IMPORT_COMPLETE']);

export const NO_CREDENTIALS_MESSAGE =
  '✗ No AWS credentials found: run `aws configure` (access key) or `aws configure sso` and ' +
  '`export AWS_PROFILE=<profile>`, then `npm run doctor` again.';

/** The region's endpoint does not exist (the service is not offered there). */
function isUnknownEndpoint(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: { code?: string } };
  return e?.code === 'ENOTFOUND' || e?.cause?.code === 'ENOTFOUND' || /ENOTFOUND|getaddrinfo/.test(String(e?.message));
}
/** Leads a fix that `npm run setup` can apply itself; the manual way follows. */
export const SETUP_DOES_IT = '`npm run setup` does this (asking first); by hand: ';
export const bareName = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');
export const isAddress = (identity: string) => identity.includes('@');
const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();

/**
 * Every region the stack deploys into: its own, plus us-east-1 for the certificate stack with a Route 53
 * domain (an external-DNS domain's certificate is imported by ARN: no stack there).
 */
export function stackRegions(config: PortfolioConfig): string[] {
  return [...new Set([config.region, ...(isRoute53Domain(config.domain) ? [CLOUDFRONT_CERTIFICATE_REGION] : [])])];
}

export async function checkCredentials(
  sts: STSClient,
): Promise<{ ok: true; account: string; result: CheckResult } | { ok: false; noCredentials: boolean; result: CheckResult }> {
  try {
    const id = await sts.send(new GetCallerIdentityCommand({}));
    const account = id.Account ?? '';
    return { ok: true, account, result: { check: 'AWS credentials', status: 'pass', detail: `account ${account} as ${id.Arn ?? '?'}` } };
  } catch (error) {
    if (isNoCredentials(error)) return { ok: false, noCredentials: true, result: row('AWS credentials', 'fail', NO_CREDENTIALS_MESSAGE) };
    const fix = /expired/i.test(errorText(error))
      ? 'The session expired: `aws sso login` (or fetch new keys), then `npm run doctor` again.'
      : 'Check the keys or profile in use (`aws configure list`), then `npm run doctor` again.';
    return { ok: false, noCredentials: false, result: row('AWS credentials', 'fail', `refused (${errorText(error)})`, fix) };
  }
}

interface SesAccount {
  sandbox: boolean;
  sendingEnabled: boolean;
  max24h: number;
  maxRate: number;
}

export async function checkSesRegion(sesv2: SESv2Client, region: string): Promise<{ account?: SesAccount; result: CheckResult }> {
  const check = 'SES in region';
  try {
    const a = await sesv2.send(new GetAccountCommand({}));
    const account: SesAccount = {
      sandbox: a.ProductionAccessEnabled !== true,
      sendingEnabled: a.SendingEnabled !== false,
      max24h: a.SendQuota?.Max24HourSend ?? 0,
      maxRate: a.SendQuota?.MaxSendRate ?? 0,
    };
    return { account, result: { check, status: 'pass', detail: `SES answers in ${region}` } };
  } catch (error) {
    if (isUnknownEndpoint(error)) {
      const fix =
        SETUP_DOES_IT +
        'set "region" in cdk.json (context.portfolio) to a region with SES, e.g. us-east-1 or eu-west-1 ' +
        '(list: https://docs.aws.amazon.com/general/latest/gr/ses.html).';
      return { result: row(check, 'fail', `SES is not offered in ${region}`, fix) };
    }
    return { result: unreadable(check, `SES GetAccount failed in ${region} (${errorText(error)})`, 'ses:GetAccount (read-only)') };
  }
}

/**
 * A failed bootstrap keeps its staging bucket (the template retains it under a fixed name), so the next
 * one fails with "already exists" until it is gone (aws/aws-cdk#24143: https://github.com/aws/aws-cdk/issues/24143).
 */
function failedBootstrapFix(account: string, region: string, bootstrap: string): string {
  const bucket = `cdk-hnb659fds-assets-${account}-${region}`;
  return (
    `${SETUP_DOES_IT}delete the CDKToolkit stack in the CloudFormation console (region ${region}) and the staging bucket it kept, ` +
    `\`aws s3 rb s3://${bucket} --force\` (a versioned bucket: empty its versions in the S3 console if that refuses), then \`${bootstrap}\`.`
  );
}

export async function checkBootstrap(
  cloudFormation: (region: string) => CloudFormationClient,
  account: string,
  region: string,
): Promise<CheckResult> {
  const check = `CDK bootstrap ${region}`;
  const bootstrap = `npx cdk bootstrap aws://${account}/${region}`;
  try {
    const answer = await cloudFormation(region).send(new DescribeStacksCommand({ StackName: TOOLKIT_STACK }));
    const stack = answer.Stacks?.[0];
    const status = stack?.StackStatus ?? 'UNKNOWN';
    if (!USABLE_STACK_STATUS.has(status)) {
      const fix = /IN_PROGRESS$/.test(status)
        ? 'Wait until the CDKToolkit stack finishes (CloudFormation console), then `npm run doctor` again.'
        : status === 'ROLLBACK_COMPLETE'
          ? failedBootstrapFix(account, region, bootstrap)
          : `Delete the CDKToolkit stack in the CloudFormation console (region ${region}), then \`${bootstrap}\`.`;
      return row(check, 'fail', `the ${TOOLKIT_STACK} stack is ${status}`, fix);
    }
    const version = Number(stack?.Outputs?.find((o) => o.OutputKey === 'BootstrapVersion')?.OutputValue);
    if (!Number.isFinite(version) || version < MIN_BOOTSTRAP_VERSION) {
      const detail = `bootstrap version ${Number.isFinite(version) ? version : 'unknown'}, CDK v2 needs ${MIN_BOOTSTRAP_VERSION} or newer`;
      return row(check, 'fail', detail, `${SETUP_DOES_IT}\`${bootstrap}\` (updates the bootstrap stack in place).`);
    }
    return row(check, 'pass', `bootstrapped (version ${version})`);
  } catch (error) {
    if (isStackMissing(error))
      return row(check, 'fail', `not bootstrapped (no ${TOOLKIT_STACK} stack)`, `${SETUP_DOES_IT}\`${bootstrap}\``);
    return unreadable(check, `could not read the ${TOOLKIT_STACK} stack (${errorText(error)})`, 'cloudformation:DescribeStacks');
  }
}

interface IdentityState {
  found: boolean;
  verified: boolean;
  verificationStatus: string;
  dkim: string;
}

async function emailIdentity(sesv2: SESv2Client, identity: string): Promise<IdentityState> {
  try {
    const r = await sesv2.send(new GetEmailIdentityCommand({ EmailIdentity: identity }));
    return {
      found: true,
      verified: r.VerifiedForSendingStatus === true,
      verificationStatus: r.VerificationStatus ?? 'UNKNOWN',
      dkim: r.DkimAttributes?.Status ?? 'NOT_STARTED',
    };
  } catch (error) {
    if (errorName(error) === 'NotFoundException') {
      return { found: false, verified: false, verificationStatus: 'NOT_FOUND', dkim: 'NOT_STARTED' };
    }
    throw error;
  }
}

function createIdentityFix(identity: string, region: string): string {
  const create = `aws sesv2 create-email-identity --email-identity ${identity} --region ${region}`;
  return (
    SETUP_DOES_IT +
    (isAddress(identity)
      ? `\`${create}\`, then click the link in the mail AWS sends to ${identity}.`
      : `\`${create}\`, then publish the three DKIM CNAME records it prints (SES console → Identities → ${identity} → ` +
        'Publish DNS records, one click with Route 53).')
  );
}

function pendingFix(identity: string, state: IdentityState, region: string): string {
  const resend =
    `\`aws sesv2 delete-email-identity --email-identity ${identity} --region ${region}\` then ` +
    `\`aws sesv2 create-email-identity --email-identity ${identity} --region ${region}\``;
  if (isAddress(identity)) {
    return state.verificationStatus === 'FAILED'
      ? `The link expired. ${SETUP_DOES_IT}${resend}; then click the link in the new mail.`
      : `Click the link in the verification mail sent to ${identity} (to resend: ${resend}).`;
  }
  if (state.dkim === 'FAILED') {
    // SES stops looking after 72 h; only a new identity (new DKIM tokens) starts a new check (see setup/steps/ses-identities.ts, restartText).
    return (
      `SES stopped looking for the DKIM records of ${identity} (72 h) and does not look again by itself. ${SETUP_DOES_IT}` +
      `${resend}; then publish the three new DKIM CNAME records it prints.`
    );
  }
  return (
    `DKIM is ${state.dkim}: publish the three DKIM CNAME records of ${identity} in its DNS (\`npm run setup\` ` +
    `writes them when the domain's zone is in this account's Route 53; by hand: SES console, region ${region} → ` +
    `Identities → ${identity} → DKIM), then wait for SES to see them (up to 72 h).`
  );
}

/** The From identity the Lambda may send as (cdk.json senderIdentity: the sender address or its domain). */
export async function checkSender(sesv2: SESv2Client, config: PortfolioConfig): Promise<CheckResult> {
  const check = 'SES sender';
  const identity = config.senderIdentity;
  const region = config.region;
  const state = await emailIdentity(sesv2, identity);
  if (state.verified) {
    if (!isAddress(identity) && state.dkim !== 'SUCCESS') {
      return row(check, 'fail', `${identity} verified but DKIM is ${state.dkim}`, pendingFix(identity, state, region));
    }
    return row(check, 'pass', isAddress(identity) ? `${identity} verified (address)` : `${identity} verified (domain, DKIM ${state.dkim})`);
  }
  if (!state.found && isAddress(identity)) {
    // The Lambda's permission names senderIdentity: a verified domain alone does not let it send as the address.
    const domain = domainOf(identity);
    const domainState = await emailIdentity(sesv2, domain);
    if (domainState.verified) {
      const fix = `${SETUP_DOES_IT}set "senderIdentity": "${domain}" in cdk.json (context.portfolio), or ${createIdentityFix(identity, region)}`;
      return row(check, 'fail', `${identity} is not an SES identity, but its domain ${domain} is verified`, fix);
    }
  }
  if (!state.found) return row(check, 'fail', `${identity} is not an SES identity in ${region}`, createIdentityFix(identity, region));
  const pending = isAddress(identity) ? state.verificationStatus : `DKIM ${state.dkim}`;
  return row(check, 'fail', `${identity} is not verified yet (${pending})`, pendingFix(identity, state, region));
}

/**
 * An address-only sender gets no DKIM signature of its domain (an address can be signed only once its
 * domain is set up for Easy DKIM: SES API Reference, SetIdentityDkimEnabled,
 * https://docs.aws.amazon.com/ses/latest/APIReference/API_SetIdentityDkimEnabled.html) and its MAIL FROM is
 * a subdomain of amazonses.com (SES Developer Guide, "Authenticating Email with SPF in Amazon SES":
 * https://docs.aws.amazon.com/ses/latest/dg/send-email-authentication-spf.html), so neither aligns with
 * the From domain (RFC 7489, section 3.1: https://www.rfc-editor.org/rfc/rfc7489#section-3.1). When that
 * domain's DMARC policy is reject or quarantine, the owner's inbox refuses or files the mail as spam while
 * SES reports it delivered: a passing sender row becomes a warning naming the fix. The policy is the
 * domain's own record, else its parent's `sp=` (or `p=`), the organizational domain of section 6.6.3
 * taken as the last two labels.
 */
export async function withSenderDmarc(
  sender: CheckResult,
  identity: string,
  resolveTxt: (name: string) => Promise<string[][]>,
): Promise<CheckResult> {
  if (sender.status !== 'pass' || !isAddress(identity)) return sender;
  const domain = domainOf(identity);
  const policyOf = async (name: string, tag: 'p' | 'sp'): Promise<string | undefined> => {
    let records: string[][];
    try {
      records = await resolveTxt(`_dmarc.${name}`);
    } catch {
      return undefined; // no record, or DNS unreachable: nothing to report
    }
    const record = records.map((chunks) => chunks.join('')).find((text) => /^v=DMARC1\s*;/i.test(text.trim()));
    const tags = new Map((record ?? '').split(';').map((part) => part.split('=').map((x) => x.trim().toLowerCase()) as [string, string]));
    return tags.get(tag) ?? (tag === 'sp' ? tags.get('p') : undefined);
  };
  const organizational = domain.split('.').slice(-2).join('.');
  const policy = (await policyOf(domain, 'p')) ?? (organizational !== domain ? await policyOf(organizational, 'sp') : undefined);
  if (policy !== 'reject' && policy !== 'quarantine') return sender;
  return row(
    sender.check,
    'warn',
    `${sender.detail}; but ${domain} publishes DMARC p=${policy} and an address-only sender aligns with nothing, so the mail may be ${policy === 'reject' ? 'rejected' : 'filed as spam'}`,
    `${SETUP_DOES_IT}verify the domain instead ("senderIdentity": "${domain}" in cdk.json; its Easy DKIM signature aligns), or send from an address at a domain without p=${policy}.`,
  );
}

/** In the sandbox SES delivers only to verified identities: the owner's address, or its domain. */
export async function checkOwner(sesv2: SESv2Client, config: PortfolioConfig, sandbox: boolean): Promise<CheckResult> {
  const check = 'SES owner';
  const owner = config.ownerEmail;
  if (!sandbox) return row(check, 'pass', `${owner}: no verification needed (production access)`);
  const address = await emailIdentity(sesv2, owner);
  if (address.verified) return row(check, 'pass', `${owner} verified (address)`);
  const domain = domainOf(owner);
  if ((await emailIdentity(sesv2, domain)).verified) return row(check, 'pass', `${owner} covered by the verified domain ${domain}`);
  return row(
    check,
    'fail',
    `${owner} is ${address.found ? 'not verified yet' : 'not an SES identity'}: in the sandbox SES refuses to mail it`,
    address.found ? pendingFix(owner, address, config.region) : createIdentityFix(owner, config.region),
  );
}

export function checkSandbox(account: SesAccount, config: PortfolioConfig): CheckResult {
  const check = 'SES sending';
  const quota = `${account.max24h} mails a day, ${account.maxRate} a second`;
  if (!account.sendingEnabled) {
    const fix = `SES console (region ${config.region}) → Account dashboard: read the reason and resolve it there.`;
    return row(check, 'fail', `sending is paused for this account in ${config.region}`, fix);
  }
  if (!account.sandbox) return row(check, 'pass', `production access (${quota})`);
  return row(
    check,
    'pass',
    `sandbox (${quota}): enough for this site, which only mails the owner, as long as ${config.ownerEmail} ` +
      'is verified; production access is optional (`npm run setup -- --request-production-access`)',
  );
}

/** The secret's parameter exists and is a SecureString; its value is never read. */
export async function checkRecaptchaParameter(ssm: SSMClient, config: PortfolioConfig): Promise<CheckResult> {
  const check = 'reCAPTCHA secret';
  if (usesTestRecaptcha(config)) {
    return row(
      check,
      'pass',
      "Google's test site key: the stack stores Google's public test secret in a parameter of its own (nothing to store)",
    );
  }
  const name = config.recaptchaSecretParameter;
  const put = `aws ssm put-parameter --region ${config.region} --name ${name} --type SecureString --value '<your reCAPTCHA secret key>'`;
  try {
    const answer = await ssm.send(new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Name', Option: 'Equals', Values: [name] }] }));
    const parameter = answer.Parameters?.find((p) => p.Name === name);
    if (!parameter) return row(check, 'fail', `no SSM parameter ${name} in ${config.region}`, `${SETUP_DOES_IT}\`${put}\``);
    if (parameter.Type !== 'SecureString') {
      return row(
        check,
        'fail',
        `${name} is a ${parameter.Type ?? 'parameter of unknown type'}, not a SecureString (the secret must be encrypted)`,
        `\`aws ssm delete-parameter --region ${config.region} --name ${name}\`, then \`${put}\``,
      );
    }
    return row(check, 'pass', `${name} is a SecureString (value not read)`);
  } catch (error) {
    return unreadable(check, `could not describe ${name} (${errorText(error)})`, 'ssm:DescribeParameters');
  }
}

async function zoneIdsByName(route53: Route53Client, zoneName: string): Promise<string[]> {
  try {
    const answer = await route53.send(new ListHostedZonesByNameCommand({ DNSName: zoneName, MaxItems: 10 }));
    return (answer.HostedZones ?? [])
      .filter((z) => bareName(z.Name ?? '') === zoneName && z.Config?.PrivateZone !== true)
      .map((z) => (z.Id ?? '').replace('/hostedzone/', ''));
  } catch {
    return [];
  }
}

/** The configured hosted zone exists, is public, has the configured name; returns its name servers. */
export async function checkHostedZone(
  route53: Route53Client,
  domain: Route53Domain,
): Promise<{ nameServers?: string[]; result: CheckResult }> {
  const check = 'Hosted zone';
  const { hostedZoneId, hostedZoneName } = domain;
  const suggest = async () => {
    const ids = await zoneIdsByName(route53, hostedZoneName);
    return (
      SETUP_DOES_IT +
      (ids.length > 0
        ? `set "hostedZoneId": "${ids[0]}" in cdk.json (context.portfolio.domain): that is the public zone named ${hostedZoneName}.`
        : `Create the public hosted zone: \`aws route53 create-hosted-zone --name ${hostedZoneName} --caller-reference portfolio-$(date +%s)\`, ` +
          'then put its id in cdk.json (context.portfolio.domain.hostedZoneId).')
    );
  };
  try {
    const answer = await route53.send(new GetHostedZoneCommand({ Id: hostedZoneId }));
    const name = bareName(answer.HostedZone?.Name ?? '');
    if (name !== hostedZoneName)
      return { result: row(check, 'fail', `${hostedZoneId} is the zone ${name}, not ${hostedZoneName}`, await suggest()) };
    if (answer.HostedZone?.Config?.PrivateZone) {
      return { result: row(check, 'fail', `${hostedZoneId} is a private zone; the site needs a public one`, await suggest()) };
    }
    const nameServers = (answer.DelegationSet?.NameServers ?? []).map(bareName).sort();
    return { nameServers, result: row(check, 'pass', `${hostedZoneId} is ${hostedZoneName} (public)`) };
  } catch (error) {
    if (errorName(error) === 'NoSuchHostedZone' || errorName(error) === 'InvalidInput') {
      return { result: row(check, 'fail', `no hosted zone ${hostedZoneId} in this account`, await suggest()) };
    }
    return { result: unreadable(check, `could not read hosted zone ${hostedZoneId} (${errorText(error)})`, 'route53:GetHostedZone') };
  }
}

/** The registrar delegates the domain to the zone's name servers: asked of Route 53 Domains, else of DNS. */
export async function checkDelegation(
  clients: Pick<DoctorClients, 'route53Domains' | 'resolveNs'>,
  domain: Route53Domain,
  zoneNameServers: string[],
): Promise<CheckResult> {
  const check = 'Name servers';
  const zone = domain.hostedZoneName;
  const expected = zoneNameServers.join(', ');
  const atRegistrar = `At your registrar, set the name servers of ${zone} to ${expected} (changes can take up to 48 h to spread).`;
  let delegated: string[] | undefined;
  let source = 'Route 53 Domains';
  try {
    const detail = await clients.route53Domains.send(new GetDomainDetailCommand({ DomainName: zone }));
    delegated = (detail.Nameservers ?? []).map((n) => bareName(n.Name ?? '')).sort();
  } catch {
    // Registered elsewhere (or not a registrable name): ask public DNS instead.
    source = 'public DNS';
    try {
      delegated = (await clients.resolveNs(zone)).map(bareName).sort();
    } catch (error) {
      // NXDOMAIN or no NS records: public DNS answered, and nobody delegates the name yet (a domain
      // just registered, or not registered). Anything else (offline, a timeout) leaves it unknown.
      const code = (error as NodeJS.ErrnoException | undefined)?.code;
      if (code === 'ENOTFOUND' || code === 'ENODATA') {
        const detail = `public DNS has no name servers for ${zone} yet (not registered, or the registrar has not published them)`;
        return row(check, 'fail', detail, atRegistrar);
      }
      const fix = `At your registrar, make sure ${zone} uses the name servers ${expected}.`;
      return row(check, 'warn', `could not ask who ${zone} delegates to (${errorText(error)})`, fix);
    }
  }
  if (delegated.join(',') === zoneNameServers.join(','))
    return row(check, 'pass', `${zone} delegates to the zone's name servers (${source})`);
  const nameservers = zoneNameServers.map((n) => `Name=${n}`).join(' ');
  const fix =
    source === 'Route 53 Domains'
      ? `${SETUP_DOES_IT}\`aws route53domains update-domain-nameservers --region us-east-1 --domain-name ${zone} --nameservers ${nameservers}\``
      : atRegistrar;
  return row(check, 'fail', `${zone} delegates to ${delegated.join(', ') || 'nothing'} (${source}), not to the zone's ${expected}`, fix);
}

/** External DNS: the certificate setup requested is ISSUED (else: the validation record still to publish). */
export async function checkCertificate(acm: ACMClient, certificateArn: string): Promise<CheckResult> {
  const check = 'Certificate';
  try {
    const { Certificate } = await acm.send(new DescribeCertificateCommand({ CertificateArn: certificateArn }));
    const status = Certificate?.Status ?? 'UNKNOWN';
    const name = Certificate?.DomainName ?? certificateArn;
    if (status === 'ISSUED') return row(check, 'pass', `${name} issued`);
    const record = Certificate?.DomainValidationOptions?.[0]?.ResourceRecord;
    const fix =
      status === 'PENDING_VALIDATION' && record
        ? `At your DNS host, publish ${record.Name} ${record.Type} ${record.Value}; ACM issues the certificate once it sees it (\`npm run setup\` waits for it).`
        : 'Request a new one: remove "certificateArn" from cdk.json (context.portfolio.domain) and run `npm run setup -- --domain NAME --external-dns`.';
    return row(check, 'fail', `${name} is ${status}`, fix);
  } catch (error) {
    return unreadable(
      check,
      `could not read the certificate ${certificateArn} (${errorText(error)})`,
      'acm:DescribeCertificate in us-east-1',
    );
  }
}

/**
 * The reCAPTCHA alarm's construct id (infra/lib/monitoring.ts). Its name is CloudFormation's
 * "<stack>-<logical id>-<suffix>", which a long stack name truncates, so the alarm is found by its
 * logical id among the stack's resources ("Monitoring" + this id + the 8 hex digits CDK appends).
 */
const CAPTCHA_ALARM_LOGICAL_ID = new RegExp(`${CAPTCHA_ALARM_ID}[0-9A-F]{8}$`);
/** Google's own page on the 10,000 free calls a month per Cloud project, the 429 past them, and billing. */
export const RECAPTCHA_QUOTAS_PAGE = 'https://docs.cloud.google.com/recaptcha/quotas';

/**
 * The deployed stack's `CaptchaQuotaOrBudget` alarm: in ALARM the contact form is spending the last of
 * its siteverify budget, has spent it, or Google answered about quota, billing or keys, and the owner
 * must act. A warning, never a failure: the deploy that raises the budget must not be blocked by it.
 * No row before the first deploy or on a stage without the alarm (previews); a refused or failed read
 * is a warning saying the state is unknown.
 */
export async function checkCaptchaAlarm(
  cloudFormation: CloudFormationClient,
  cloudWatch: CloudWatchClient,
  config: PortfolioConfig,
): Promise<CheckResult | undefined> {
  const check = 'reCAPTCHA alarm';
  const unknown = (action: string, error: unknown) =>
    unreadable(check, `unknown: could not read the ${CAPTCHA_ALARM_ID} alarm (${errorText(error)})`, `${action} (read-only)`, 'warn');
  let alarmName: string | undefined;
  try {
    for await (const page of paginateListStackResources({ client: cloudFormation }, { StackName: config.stackName })) {
      alarmName = page.StackResourceSummaries?.find(
        (r) => r.ResourceType === 'AWS::CloudWatch::Alarm' && CAPTCHA_ALARM_LOGICAL_ID.test(r.LogicalResourceId ?? ''),
      )?.PhysicalResourceId;
      if (alarmName) break;
    }
  } catch (error) {
    if (isStackMissing(error)) return undefined;
    return unknown('cloudformation:ListStackResources', error);
  }
  if (!alarmName) return undefined;
  let alarm: MetricAlarm | undefined;
  try {
    const answer = await cloudWatch.send(new DescribeAlarmsCommand({ AlarmNames: [alarmName], AlarmTypes: ['MetricAlarm'] }));
    alarm = answer.MetricAlarms?.find((a) => a.AlarmName === alarmName);
  } catch (error) {
    return unknown('cloudwatch:DescribeAlarms', error);
  }
  if (!alarm) return undefined;
  if (alarm.StateValue !== 'ALARM') {
    return row(check, 'pass', `${CAPTCHA_ALARM_ID} is ${alarm.StateValue ?? 'UNKNOWN'}: nothing for you to do about reCAPTCHA`);
  }
  const since = alarm.StateUpdatedTimestamp ? ` since ${alarm.StateUpdatedTimestamp.toISOString().slice(0, 16).replace('T', ' ')} UTC` : '';
  return row(
    check,
    'warn',
    `${CAPTCHA_ALARM_ID} is in ALARM${since}: this month's siteverify budget is at 80% or spent (the form answers 503), or Google answered about quota, billing or keys`,
    "The contact function's log line says which: turn on billing for the key's Google Cloud project and raise " +
      `captchaMonthlyBudget in cdk.json (then \`npm run deploy\`), or make a new key with \`npm run setup\`; Google's quotas: ${RECAPTCHA_QUOTAS_PAGE}` +
      ' (docs/deploy.md, "The contact form under a flood").',
  );
}

/**
 * CloudFormation's role carries the boundary every role of the stacks names (the bootstrap stack's
 * InputPermissionsBoundary parameter): without it the boundary may not exist, and a deploy would fail
 * at its first role, halfway.
 */
export async function checkFence(
  cloudFormation: (region: string) => CloudFormationClient,
  region: string,
  boundary: string,
): Promise<CheckResult> {
  const check = `CDK fence ${region}`;
  try {
    const stack = (await cloudFormation(region).send(new DescribeStacksCommand({ StackName: TOOLKIT_STACK }))).Stacks?.[0];
    const given = stack?.Parameters?.find((p) => p.ParameterKey === 'InputPermissionsBoundary')?.ParameterValue ?? '';
    if (given === boundary) return row(check, 'pass', `CloudFormation's role and every role a deploy makes within ${boundary}`);
    const detail = given
      ? `CloudFormation's role is within ${given}, not ${boundary}`
      : `CloudFormation's role has no permissions boundary (${boundary})`;
    return row(check, 'fail', detail, '`npm run setup` makes the boundary and bootstraps with it (asking first).');
  } catch (error) {
    return row(check, 'fail', `could not read the ${TOOLKIT_STACK} stack (${errorText(error)})`);
  }
}

/** All checks, in the order an owner fixes them. Stops after the credentials when there are none. */
export async function runChecks(config: PortfolioConfig, clients: DoctorClients): Promise<DoctorOutcome> {
  const credentials = await checkCredentials(clients.sts);
  if (!credentials.ok) {
    if (credentials.noCredentials) return { kind: 'no-credentials', message: NO_CREDENTIALS_MESSAGE };
    return { kind: 'checked', account: '', results: [credentials.result] };
  }
  const { account } = credentials;
  const results: CheckResult[] = [credentials.result];

  const ses = await checkSesRegion(clients.sesv2, config.region);
  results.push(ses.result);
  for (const region of stackRegions(config)) {
    const bootstrap = await checkBootstrap(clients.cloudFormation, account, region);
    results.push(bootstrap);
    if (bootstrap.status === 'pass')
      results.push(await checkFence(clients.cloudFormation, region, boundaryPolicyName(liveStackName(config))));
  }

  if (ses.account) {
    const guarded = (check: string, run: () => Promise<CheckResult>) =>
      run().catch((error: unknown) => unreadable(check, `could not ask SES (${errorText(error)})`, 'ses:GetEmailIdentity'));
    const sender = await guarded('SES sender', () => checkSender(clients.sesv2, config));
    results.push(clients.resolveTxt ? await withSenderDmarc(sender, config.senderIdentity, clients.resolveTxt) : sender);
    results.push(await guarded('SES owner', () => checkOwner(clients.sesv2, config, ses.account!.sandbox)));
    results.push(checkSandbox(ses.account, config));
  } else {
    for (const check of ['SES sender', 'SES owner', 'SES sending'])
      results.push(row(check, 'skip', 'not checked: SES does not answer in this region'));
  }

  results.push(await checkRecaptchaParameter(clients.ssm, config));
  if (clients.cloudWatch) {
    const alarm = await checkCaptchaAlarm(clients.cloudFormation(config.region), clients.cloudWatch, config);
    if (alarm) results.push(alarm);
  }

  if (isRoute53Domain(config.domain)) {
    const zone = await checkHostedZone(clients.route53, config.domain);
    results.push(zone.result);
    if (zone.nameServers) results.push(await checkDelegation(clients, config.domain, zone.nameServers));
  } else if (config.domain?.certificateArn) {
    results.push(await checkCertificate(clients.acm, config.domain.certificateArn));
  }
  if (clients.apiGateway) {
    const breakers = await checkBreakers(clients.cloudFormation(config.region), clients.apiGateway, config, new Date());
    if (breakers) results.push(breakers);
  }
  if (clients.budgets) results.push(await checkBudget(clients.budgets, account, config));
  return { kind: 'checked', account, results };
}
