/**
 * The doctor against the AWS SDK clients faked at their boundary (aws-sdk-client-mock): a ready
 * account passes; each problem alone gives its own message, its own fix and exit code 1.
 */
import { ACMClient, DescribeCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DescribeStacksCommand, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchClient, DescribeAlarmsCommand } from '@aws-sdk/client-cloudwatch';
import { GetHostedZoneCommand, ListHostedZonesByNameCommand, Route53Client } from '@aws-sdk/client-route-53';
import { GetDomainDetailCommand, Route53DomainsClient } from '@aws-sdk/client-route-53-domains';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { DescribeParametersCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfig, type PortfolioConfig } from '../../config/portfolio-config';
import type { DoctorClients } from './checks';
import { runDoctor } from './run';

const ACCOUNT = '123456789012';
const ZONE_ID = 'Z0123456789ABCDEFGHIJ';
const ZONE_NS = ['ns-1.awsdns-01.org', 'ns-2.awsdns-02.co.uk', 'ns-3.awsdns-03.com', 'ns-4.awsdns-04.net'];

const baseConfig = {
  stackName: 'Portfolio',
  region: 'eu-west-1',
  ownerEmail: 'me@owner-mail.dev',
  senderEmail: 'portfolio@jane.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: 'a-real-looking-site-key-0123456789',
  domain: { domainName: 'www.jane.dev', hostedZoneId: ZONE_ID, hostedZoneName: 'jane.dev' },
};
const config = (overrides: Record<string, unknown> = {}): PortfolioConfig => parseConfig({ ...baseConfig, ...overrides });

const sts = mockAwsClient(STSClient);
const ses = mockAwsClient(SESv2Client);
const ssm = mockAwsClient(SSMClient);
const cfn = mockAwsClient(CloudFormationClient);
const r53 = mockAwsClient(Route53Client);
const domains = mockAwsClient(Route53DomainsClient);
const acm = mockAwsClient(ACMClient);
const cw = mockAwsClient(CloudWatchClient);
const bootstrappedRegions: string[] = [];

function awsError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $metadata: {} });
}

function clients(): DoctorClients {
  return {
    sts: new STSClient({ region: 'eu-west-1' }),
    sesv2: new SESv2Client({ region: 'eu-west-1' }),
    ssm: new SSMClient({ region: 'eu-west-1' }),
    cloudFormation: (region) => {
      // The regions CloudFormation is asked in, once each (the stack's region is also asked for its alarm).
      if (!bootstrappedRegions.includes(region)) bootstrappedRegions.push(region);
      return new CloudFormationClient({ region });
    },
    route53: new Route53Client({ region: 'us-east-1' }),
    route53Domains: new Route53DomainsClient({ region: 'us-east-1' }),
    acm: new ACMClient({ region: 'us-east-1' }),
    cloudWatch: new CloudWatchClient({ region: 'eu-west-1' }),
    resolveNs: () => Promise.reject(new Error('public DNS must not be asked when Route 53 Domains knows the domain')),
  };
}

/** The bootstrap parameter setup gives CloudFormation's role: the boundary every role of the stacks carries. */
const FENCED = { ParameterKey: 'InputPermissionsBoundary', ParameterValue: 'Portfolio-cdk-boundary' };

/** Everything ready: verified sender and owner in the sandbox, both regions bootstrapped, zone delegated. */
function readyAccount() {
  for (const m of [sts, ses, ssm, cfn, r53, domains, cw]) m.reset();
  bootstrappedRegions.length = 0;
  sts.on(GetCallerIdentityCommand).resolves({ Account: ACCOUNT, Arn: `arn:aws:iam::${ACCOUNT}:user/jane` });
  ses.on(GetAccountCommand).resolves({
    ProductionAccessEnabled: false,
    SendingEnabled: true,
    SendQuota: { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 },
  });
  ses.on(GetEmailIdentityCommand).rejects(awsError('NotFoundException', 'Email identity does not exist.'));
  ses.on(GetEmailIdentityCommand, { EmailIdentity: 'portfolio@jane.dev' }).resolves({
    IdentityType: 'EMAIL_ADDRESS',
    VerifiedForSendingStatus: true,
    VerificationStatus: 'SUCCESS',
  });
  ses.on(GetEmailIdentityCommand, { EmailIdentity: 'me@owner-mail.dev' }).resolves({
    IdentityType: 'EMAIL_ADDRESS',
    VerifiedForSendingStatus: true,
    VerificationStatus: 'SUCCESS',
  });
  cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
    Stacks: [
      {
        StackName: 'CDKToolkit',
        StackStatus: 'UPDATE_COMPLETE',
        CreationTime: new Date(0),
        Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '29' }],
        Parameters: [FENCED],
      },
    ],
  });
  ssm.on(DescribeParametersCommand).resolves({
    Parameters: [{ Name: '/portfolio/recaptcha-secret', Type: 'SecureString' }],
  });
  // Not deployed yet (each test of the reCAPTCHA alarm deploys it).
  cfn.on(ListStackResourcesCommand).rejects(awsError('ValidationError', 'Stack with id Portfolio does not exist'));
  r53.on(GetHostedZoneCommand, { Id: ZONE_ID }).resolves({
    HostedZone: { Id: `/hostedzone/${ZONE_ID}`, Name: 'jane.dev.', CallerReference: 'x', Config: { PrivateZone: false } },
    DelegationSet: { NameServers: ZONE_NS },
  });
  r53.on(ListHostedZonesByNameCommand).resolves({
    HostedZones: [{ Id: `/hostedzone/${ZONE_ID}`, Name: 'jane.dev.', CallerReference: 'x', Config: { PrivateZone: false } }],
    IsTruncated: false,
    MaxItems: 10,
  });
  domains.on(GetDomainDetailCommand, { DomainName: 'jane.dev' }).resolves({
    DomainName: 'jane.dev',
    Nameservers: [...ZONE_NS].reverse().map((Name) => ({ Name: `${Name}.` })),
  } as never);
}

async function doctor(cfg: PortfolioConfig = config(), c: DoctorClients = clients()) {
  let output = '';
  const code = await runDoctor({ config: cfg, clients: c, print: (text) => (output += text) });
  return { code, output };
}

/** The table line of one check ("✓ detail") plus its fix lines. */
function row(output: string, check: string): string {
  const lines = output.split('\n');
  const start = lines.findIndex((l) => l.slice(2).startsWith(check));
  if (start < 0) throw new Error(`no row "${check}" in:\n${output}`);
  let end = start + 1;
  while (end < lines.length && /^\s+→/.test(lines[end]!)) end++;
  // "✗ Check name   detail" → "✗ detail", so assertions read like the row.
  const head = `${lines[start]!.slice(0, 2)}${lines[start]!.slice(2 + check.length).trimStart()}`;
  return [head, ...lines.slice(start + 1, end)].join('\n');
}

beforeEach(readyAccount);

describe('npm run doctor', () => {
  it('passes an account with everything ready, asking both stack regions, changing nothing', async () => {
    const { code, output } = await doctor();
    expect(output).not.toContain('✗');
    expect(code).toBe(0);
    expect(row(output, 'AWS credentials')).toContain(`account ${ACCOUNT}`);
    expect(row(output, 'CDK bootstrap eu-west-1')).toMatch(/^✓.*version 29/);
    expect(row(output, 'CDK bootstrap us-east-1')).toMatch(/^✓/);
    expect(bootstrappedRegions).toEqual(['eu-west-1', 'us-east-1']);
    expect(row(output, 'SES sending')).toMatch(/^✓ .*sandbox \(200 mails a day, 1 a second\).*me@owner-mail\.dev/);
    expect(row(output, 'reCAPTCHA secret')).toMatch(/^✓ .*SecureString \(value not read\)/);
    expect(row(output, 'Name servers')).toMatch(/^✓ .*Route 53 Domains/);
    // Read-only: only Describe/Get/List calls were made.
    const commands = [sts, ses, ssm, cfn, r53, domains, cw].flatMap((m) => m.calls().map((c) => c.args[0].constructor.name));
    expect(commands.every((name) => /^(Get|Describe|List)/.test(name))).toBe(true);
  });

  it('asks only the stack region for bootstrap without a custom domain, and skips the zone', async () => {
    const { code, output } = await doctor(config({ domain: null }));
    expect(code).toBe(0);
    expect(bootstrappedRegions).toEqual(['eu-west-1']);
    expect(output).not.toContain('Hosted zone');
  });

  it('external DNS: no zone or name-server rows, no us-east-1 bootstrap; a pending certificate names its validation record', async () => {
    const arn = `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/01234567-aaaa-bbbb-cccc-000000000000`;
    acm.reset();
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: {
        CertificateArn: arn,
        DomainName: 'www.jane.dev',
        Status: 'PENDING_VALIDATION',
        DomainValidationOptions: [
          { DomainName: 'www.jane.dev', ResourceRecord: { Name: '_a.www.jane.dev.', Type: 'CNAME', Value: '_b.acm-validations.aws.' } },
        ],
      },
    });
    const { code, output } = await doctor(config({ domain: { domainName: 'www.jane.dev', certificateArn: arn } }));
    expect(code).toBe(1);
    expect(bootstrappedRegions).toEqual(['eu-west-1']);
    expect(output).not.toContain('Hosted zone');
    expect(row(output, 'Certificate')).toBe(
      '✗ www.jane.dev is PENDING_VALIDATION\n' +
        '                           → At your DNS host, publish _a.www.jane.dev. CNAME _b.acm-validations.aws.; ACM issues the certificate once it sees it (`npm run setup` waits for it).',
    );
    acm.on(DescribeCertificateCommand).resolves({ Certificate: { CertificateArn: arn, DomainName: 'www.jane.dev', Status: 'ISSUED' } });
    expect((await doctor(config({ domain: { domainName: 'www.jane.dev', certificateArn: arn } }))).code).toBe(0);
  });

  it('no credentials: one line naming how to set them, exit 1', async () => {
    sts.on(GetCallerIdentityCommand).rejects(awsError('CredentialsProviderError', 'Could not load credentials from any providers'));
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(output.split('\n')).toHaveLength(1);
    expect(output).toMatch(/No AWS credentials.*aws configure/);
  });

  it('a bootstrap without the boundary (an account set up before it): fails, naming setup; with another boundary too', async () => {
    cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
      Stacks: [
        {
          StackName: 'CDKToolkit',
          StackStatus: 'UPDATE_COMPLETE',
          CreationTime: new Date(0),
          Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '29' }],
        },
      ],
    });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'CDK bootstrap eu-west-1')).toMatch(/^✓/);
    expect(row(output, 'CDK fence eu-west-1')).toMatch(/^✗ .*has no permissions boundary \(Portfolio-cdk-boundary\)/);
    expect(row(output, 'CDK fence eu-west-1')).toContain('`npm run setup` makes the boundary and bootstraps with it');
    cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
      Stacks: [
        {
          StackName: 'CDKToolkit',
          StackStatus: 'UPDATE_COMPLETE',
          CreationTime: new Date(0),
          Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '29' }],
          Parameters: [{ ...FENCED, ParameterValue: 'SomeoneElsesBoundary' }],
        },
      ],
    });
    expect(row((await doctor()).output, 'CDK fence eu-west-1')).toMatch(/^✗ .*within SomeoneElsesBoundary, not Portfolio-cdk-boundary/);
  });

  it('no bootstrap in us-east-1 (certificate region): names the bootstrap command for that region', async () => {
    cfn.on(DescribeStacksCommand).callsFake(async (_input, getClient) => {
      const region = await (getClient() as CloudFormationClient).config.region();
      if (region === 'us-east-1') throw awsError('ValidationError', 'Stack with id CDKToolkit does not exist');
      return {
        Stacks: [
          {
            StackName: 'CDKToolkit',
            StackStatus: 'CREATE_COMPLETE',
            CreationTime: new Date(0),
            Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: '29' }],
            Parameters: [FENCED],
          },
        ],
      };
    });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'CDK bootstrap eu-west-1')).toMatch(/^✓/);
    expect(row(output, 'CDK bootstrap us-east-1')).toMatch(/^✗ .*not bootstrapped/);
    expect(row(output, 'CDK bootstrap us-east-1')).toContain(`npx cdk bootstrap aws://${ACCOUNT}/us-east-1`);
    // npm run setup can do it: the fix says so first, the manual command stays.
    expect(row(output, 'CDK bootstrap us-east-1')).toContain('→ `npm run setup` does this (asking first); by hand: `npx cdk bootstrap');
  });

  it('unverified sender: names the verification command with the configured region', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'portfolio@jane.dev' }).resolves({
      IdentityType: 'EMAIL_ADDRESS',
      VerifiedForSendingStatus: false,
      VerificationStatus: 'PENDING',
    });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'SES sender')).toMatch(/^✗ portfolio@jane\.dev is not verified yet \(PENDING\)/);
    expect(row(output, 'SES sender')).toContain('Click the link in the verification mail sent to portfolio@jane.dev');
    expect(row(output, 'SES sender')).toContain('--region eu-west-1');
    expect(row(output, 'SES owner')).toMatch(/^✓/);
  });

  it('each fix names npm run setup where setup can act: an expired link, a failed bootstrap stack, DKIM records, production access', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'portfolio@jane.dev' }).resolves({
      IdentityType: 'EMAIL_ADDRESS',
      VerifiedForSendingStatus: false,
      VerificationStatus: 'FAILED',
    });
    cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
      Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'ROLLBACK_COMPLETE', CreationTime: new Date(0) }],
    });
    const { output } = await doctor();
    expect(row(output, 'SES sender')).toContain(
      'The link expired. `npm run setup` does this (asking first); by hand: `aws sesv2 delete-email-identity',
    );
    expect(row(output, 'CDK bootstrap eu-west-1')).toContain(
      '→ `npm run setup` does this (asking first); by hand: delete the CDKToolkit stack',
    );
    expect(row(output, 'CDK bootstrap eu-west-1')).toContain('and the staging bucket it kept, `aws s3 rb s3://cdk-hnb659fds-assets-');
    expect(row(output, 'SES sending')).toContain('`npm run setup -- --request-production-access`');
    // A stack in another failed state is the owner's to look at: no promise that setup repairs it.
    cfn.on(DescribeStacksCommand, { StackName: 'CDKToolkit' }).resolves({
      Stacks: [{ StackName: 'CDKToolkit', StackStatus: 'UPDATE_ROLLBACK_FAILED', CreationTime: new Date(0) }],
    });
    expect(row((await doctor()).output, 'CDK bootstrap eu-west-1')).not.toContain('npm run setup');

    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'portfolio@jane.dev' }).rejects(awsError('NotFoundException', 'no'));
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'jane.dev' }).resolves({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: false,
      VerificationStatus: 'PENDING',
      DkimAttributes: { Status: 'PENDING' },
    });
    const dkim = await doctor(config({ senderIdentity: 'jane.dev' }));
    expect(row(dkim.output, 'SES sender')).toContain("`npm run setup` writes them when the domain's zone is in this account's Route 53");
    // FAILED: publishing alone does not help, SES looks no more; the fix is a new identity.
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'jane.dev' }).resolves({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: false,
      VerificationStatus: 'FAILED',
      DkimAttributes: { Status: 'FAILED' },
    });
    const failed = row((await doctor(config({ senderIdentity: 'jane.dev' }))).output, 'SES sender');
    expect(failed).toContain(
      'SES stopped looking for the DKIM records of jane.dev (72 h) and does not look again by itself. `npm run setup` does this (asking first); by hand: `aws sesv2 delete-email-identity --email-identity jane.dev',
    );
    expect(failed).not.toContain('wait for SES to see them');
  });

  it('sender address missing but its domain verified: says to set senderIdentity to the domain', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'portfolio@jane.dev' }).rejects(awsError('NotFoundException', 'no'));
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'jane.dev' }).resolves({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: true,
      DkimAttributes: { Status: 'SUCCESS' },
    });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'SES sender')).toContain('"senderIdentity": "jane.dev"');
  });

  it('a sender domain is reported with its DKIM status', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'jane.dev' }).resolves({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: false,
      VerificationStatus: 'PENDING',
      DkimAttributes: { Status: 'PENDING' },
    });
    const pending = await doctor(config({ senderIdentity: 'jane.dev' }));
    expect(pending.code).toBe(1);
    expect(row(pending.output, 'SES sender')).toMatch(/^✗ jane\.dev is not verified yet \(DKIM PENDING\)/);
    expect(row(pending.output, 'SES sender')).toContain('DKIM CNAME records');

    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'jane.dev' }).resolves({
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: true,
      DkimAttributes: { Status: 'SUCCESS' },
    });
    const ready = await doctor(config({ senderIdentity: 'jane.dev' }));
    expect(row(ready.output, 'SES sender')).toMatch(/^✓ jane\.dev verified \(domain, DKIM SUCCESS\)/);
  });

  it('unverified owner in the sandbox: fails with the verification command', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'me@owner-mail.dev' }).rejects(awsError('NotFoundException', 'no'));
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'SES owner')).toMatch(/^✗ me@owner-mail\.dev is not an SES identity: in the sandbox SES refuses to mail it/);
    expect(row(output, 'SES owner')).toContain('aws sesv2 create-email-identity --email-identity me@owner-mail.dev --region eu-west-1');
  });

  it('the same unverified owner is fine with production access', async () => {
    ses.on(GetEmailIdentityCommand, { EmailIdentity: 'me@owner-mail.dev' }).rejects(awsError('NotFoundException', 'no'));
    ses
      .on(GetAccountCommand)
      .resolves({ ProductionAccessEnabled: true, SendingEnabled: true, SendQuota: { Max24HourSend: 50000, MaxSendRate: 14 } });
    const { code, output } = await doctor();
    expect(code).toBe(0);
    expect(row(output, 'SES owner')).toMatch(/^✓ .*production access/);
  });

  it('missing reCAPTCHA parameter: names the put-parameter command', async () => {
    ssm.on(DescribeParametersCommand).resolves({ Parameters: [] });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'reCAPTCHA secret')).toMatch(/^✗ no SSM parameter \/portfolio\/recaptcha-secret in eu-west-1/);
    expect(row(output, 'reCAPTCHA secret')).toContain(
      'aws ssm put-parameter --region eu-west-1 --name /portfolio/recaptcha-secret --type SecureString',
    );
  });

  it("Google's test key (a trial or a preview): asks for no parameter, since the stack stores the test secret", async () => {
    ssm.on(DescribeParametersCommand).resolves({ Parameters: [] });
    const { code, output } = await doctor(config({ recaptchaSiteKey: null, stage: 'pr-4' }));
    expect(code).toBe(0);
    expect(row(output, 'reCAPTCHA secret')).toMatch(/^✓ Google's test site key: the stack stores Google's public test secret/);
    expect(output).not.toContain('/portfolio/recaptcha-secret');
  });

  it('a String instead of a SecureString: names delete then put as SecureString', async () => {
    ssm.on(DescribeParametersCommand).resolves({ Parameters: [{ Name: '/portfolio/recaptcha-secret', Type: 'String' }] });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'reCAPTCHA secret')).toMatch(/^✗ \/portfolio\/recaptcha-secret is a String, not a SecureString/);
    expect(row(output, 'reCAPTCHA secret')).toContain('aws ssm delete-parameter --region eu-west-1 --name /portfolio/recaptcha-secret');
  });

  it('wrong hosted zone: says which zone the id is and suggests the right id', async () => {
    r53.on(GetHostedZoneCommand, { Id: ZONE_ID }).resolves({
      HostedZone: { Id: `/hostedzone/${ZONE_ID}`, Name: 'other.dev.', CallerReference: 'x' },
      DelegationSet: { NameServers: ZONE_NS },
    });
    r53.on(ListHostedZonesByNameCommand).resolves({
      HostedZones: [{ Id: '/hostedzone/ZRIGHTZONE123', Name: 'jane.dev.', CallerReference: 'y' }],
      IsTruncated: false,
      MaxItems: 10,
    });
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'Hosted zone')).toMatch(new RegExp(`^✗ ${ZONE_ID} is the zone other\\.dev, not jane\\.dev`));
    expect(row(output, 'Hosted zone')).toContain('"hostedZoneId": "ZRIGHTZONE123"');
  });

  it('a domain registered elsewhere that delegates to other name servers: asks DNS and names the registrar step', async () => {
    domains.on(GetDomainDetailCommand).rejects(awsError('InvalidInput', 'Domain jane.dev not found in account'));
    const c = { ...clients(), resolveNs: async () => ['ns1.registrar.example', 'ns2.registrar.example'] };
    const { code, output } = await doctor(config(), c);
    expect(code).toBe(1);
    expect(row(output, 'Name servers')).toMatch(
      /^✗ jane\.dev delegates to ns1\.registrar\.example, ns2\.registrar\.example \(public DNS\)/,
    );
    expect(row(output, 'Name servers')).toContain(
      `At your registrar, set the name servers of jane.dev to ${[...ZONE_NS].sort().join(', ')}`,
    );
  });

  it('a domain public DNS does not know yet (just registered, no name servers published): a failure naming the registrar step, not an unknown', async () => {
    domains.on(GetDomainDetailCommand).rejects(awsError('InvalidInput', 'Domain jane.dev not found in account'));
    const nxdomain = Object.assign(new Error('queryNs ENOTFOUND jane.dev'), { code: 'ENOTFOUND' });
    const { code, output } = await doctor(config(), { ...clients(), resolveNs: () => Promise.reject(nxdomain) });
    expect(code).toBe(1);
    expect(row(output, 'Name servers')).toMatch(/^✗ public DNS has no name servers for jane\.dev yet/);
    expect(row(output, 'Name servers')).toContain(
      `At your registrar, set the name servers of jane.dev to ${[...ZONE_NS].sort().join(', ')}`,
    );
    // Offline (no answer at all) stays an unknown: a warning that says it could not ask.
    const offline = Object.assign(new Error('queryNs ECONNREFUSED jane.dev'), { code: 'ECONNREFUSED' });
    const unknown = await doctor(config(), { ...clients(), resolveNs: () => Promise.reject(offline) });
    expect(row(unknown.output, 'Name servers')).toMatch(/^! could not ask who jane\.dev delegates to/);
  });

  it('a region without SES: says so and names the setting', async () => {
    ses
      .on(GetAccountCommand)
      .rejects(Object.assign(new Error('getaddrinfo ENOTFOUND email.ap-east-9.amazonaws.com'), { code: 'ENOTFOUND' }));
    const { code, output } = await doctor();
    expect(code).toBe(1);
    expect(row(output, 'SES in region')).toMatch(/^✗ SES is not offered in eu-west-1/);
    expect(row(output, 'SES in region')).toContain('"region"');
    expect(row(output, 'SES sender')).toMatch(/^– /);
  });

  it('example addresses in cdk.json are a configuration failure', async () => {
    const { code, output } = await doctor(config({ ownerEmail: 'owner@example.com' }));
    expect(code).toBe(1);
    expect(row(output, 'Configuration')).toMatch(/^✗ .*ownerEmail.*example address/);
  });
});

describe("an address-only sender and its domain's DMARC policy", () => {
  beforeEach(readyAccount);
  /** Public DNS as a map of TXT records; a name it lacks answers ENOTFOUND, as Node's resolver does. */
  const txt = (records: Record<string, string[]>) => (name: string) =>
    name in records
      ? Promise.resolve(records[name]!.map((r) => [r]))
      : Promise.reject(Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' }));

  it.each([
    ['reject', 'rejected'],
    ['quarantine', 'filed as spam'],
  ])('p=%s: the sender row warns (nothing aligns) and names the fix; exit stays 0', async (policy, fate) => {
    const { code, output } = await doctor(config(), {
      ...clients(),
      resolveTxt: txt({ '_dmarc.jane.dev': [`v=DMARC1; p=${policy}; rua=mailto:d@jane.dev`] }),
    });
    expect(row(output, 'SES sender')).toContain(
      `jane.dev publishes DMARC p=${policy} and an address-only sender aligns with nothing, so the mail may be ${fate}`,
    );
    expect(row(output, 'SES sender')).toContain('"senderIdentity": "jane.dev"');
    expect(code).toBe(0);
  });

  it("a subdomain without its own record takes its organizational domain's sp=", async () => {
    const cfg = config({ senderEmail: 'portfolio@mail.jane.dev' });
    ses
      .on(GetEmailIdentityCommand, { EmailIdentity: 'portfolio@mail.jane.dev' })
      .resolves({ IdentityType: 'EMAIL_ADDRESS', VerifiedForSendingStatus: true, VerificationStatus: 'SUCCESS' });
    const { output } = await doctor(cfg, { ...clients(), resolveTxt: txt({ '_dmarc.jane.dev': ['v=DMARC1; p=none; sp=reject'] }) });
    expect(row(output, 'SES sender')).toContain('mail.jane.dev publishes DMARC p=reject');
  });

  it('p=none, no record, or DNS unreachable: the row passes as before', async () => {
    for (const resolveTxt of [txt({ '_dmarc.jane.dev': ['v=DMARC1; p=none'] }), txt({}), () => Promise.reject(new Error('ETIMEOUT'))]) {
      const { output } = await doctor(config(), { ...clients(), resolveTxt });
      expect(row(output, 'SES sender')).toMatch(/^✓/);
    }
  });
});

describe("the deployed stack's reCAPTCHA alarm (CaptchaQuotaOrBudget)", () => {
  const ALARM = 'Portfolio-MonitoringCaptchaQuotaOrBudget5D2C4F1A-1QW2E3R4T5Y6';
  const resource = (LogicalResourceId: string, ResourceType: string, PhysicalResourceId: string) => ({
    LogicalResourceId,
    ResourceType,
    PhysicalResourceId,
    ResourceStatus: 'CREATE_COMPLETE' as const,
    LastUpdatedTimestamp: new Date(0),
  });
  /** The live stack, its alarm on the second page of resources (ListStackResources pages with NextToken). */
  function deployed() {
    cfn.on(ListStackResourcesCommand, { StackName: 'Portfolio' }).callsFake(async ({ NextToken }: { NextToken?: string }) =>
      NextToken === 'page-2'
        ? { StackResourceSummaries: [resource('MonitoringCaptchaQuotaOrBudget5D2C4F1A', 'AWS::CloudWatch::Alarm', ALARM)] }
        : {
            StackResourceSummaries: [
              resource('MonitoringContactErrors0A1B2C3D', 'AWS::CloudWatch::Alarm', 'Portfolio-MonitoringContactErrors0A1B2C3D-XYZ'),
              resource('MonitoringTopic9F8E7D6C', 'AWS::SNS::Topic', `arn:aws:sns:eu-west-1:${ACCOUNT}:Portfolio-Topic`),
            ],
            NextToken: 'page-2',
          },
    );
  }
  const inState = (StateValue: 'OK' | 'ALARM' | 'INSUFFICIENT_DATA') =>
    cw.on(DescribeAlarmsCommand, { AlarmNames: [ALARM] }).resolves({
      MetricAlarms: [{ AlarmName: ALARM, StateValue, StateUpdatedTimestamp: new Date('2026-11-20T08:15:00Z') }],
    });

  it("in ALARM: a warning (the deploy that raises the budget still runs) naming billing, the budget, a new key and Google's quota page", async () => {
    deployed();
    inState('ALARM');
    const { code, output } = await doctor();
    expect(code).toBe(0);
    const alarm = row(output, 'reCAPTCHA alarm');
    expect(alarm).toMatch(
      /^! CaptchaQuotaOrBudget is in ALARM since 2026-11-20 08:15 UTC: this month's siteverify budget is at 80% or spent/,
    );
    expect(alarm).toContain('Google answered about quota, billing or keys');
    expect(alarm).toMatch(
      /→ The contact function's log line says which: turn on billing for the key's Google Cloud project and raise captchaMonthlyBudget in cdk\.json/,
    );
    expect(alarm).toContain('make a new key with `npm run setup`');
    expect(alarm).toContain('https://docs.cloud.google.com/recaptcha/quotas');
    expect(cw.commandCalls(DescribeAlarmsCommand)[0]!.args[0].input).toEqual({ AlarmNames: [ALARM], AlarmTypes: ['MetricAlarm'] });
  });

  it.each(['OK', 'INSUFFICIENT_DATA'] as const)('%s: a passing row', async (state) => {
    deployed();
    inState(state);
    const { code, output } = await doctor();
    expect(code).toBe(0);
    expect(row(output, 'reCAPTCHA alarm')).toMatch(
      new RegExp(`^✓ CaptchaQuotaOrBudget is ${state}: nothing for you to do about reCAPTCHA$`),
    );
  });

  it('stack not deployed yet: no row, and CloudWatch is not asked', async () => {
    const { code, output } = await doctor();
    expect(code).toBe(0);
    expect(output).not.toContain('reCAPTCHA alarm');
    expect(cw.calls()).toHaveLength(0);
  });

  it('a stage without the alarm (a preview): no row', async () => {
    cfn.on(ListStackResourcesCommand).resolves({
      StackResourceSummaries: [
        resource('MonitoringContactErrors0A1B2C3D', 'AWS::CloudWatch::Alarm', 'Portfolio-pr-4-MonitoringContactErrors-XYZ'),
      ],
    });
    const { output } = await doctor();
    expect(output).not.toContain('reCAPTCHA alarm');
    expect(cw.calls()).toHaveLength(0);
  });

  it('AccessDenied on DescribeAlarms: unknown, a warning naming the permission, not a failure', async () => {
    deployed();
    cw.on(DescribeAlarmsCommand).rejects(
      awsError('AccessDenied', 'User: arn:aws:iam::123456789012:user/jane is not authorized to perform: cloudwatch:DescribeAlarms'),
    );
    const { code, output } = await doctor();
    expect(code).toBe(0);
    const alarm = row(output, 'reCAPTCHA alarm');
    expect(alarm).toMatch(/^! unknown: could not read the CaptchaQuotaOrBudget alarm \(AccessDenied: /);
    expect(alarm).toContain('→ Let these credentials call cloudwatch:DescribeAlarms (read-only)');
  });

  it("AccessDenied on the stack's resources: unknown as well, naming that permission", async () => {
    cfn.on(ListStackResourcesCommand).rejects(awsError('AccessDenied', 'not authorized to perform: cloudformation:ListStackResources'));
    const { code, output } = await doctor();
    expect(code).toBe(0);
    expect(row(output, 'reCAPTCHA alarm')).toContain('→ Let these credentials call cloudformation:ListStackResources (read-only)');
    expect(cw.calls()).toHaveLength(0);
  });
});
