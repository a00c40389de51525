/**
 * The fake AWS (fake-aws.ts) speaks each protocol as the real SDK v3 clients send and parse it: every
 * operation setup and the doctor call for Route 53, Route 53 Domains, SNS, SESv2 review and DKIM, and
 * CloudFormation's site stack, through the real clients; public DNS through a node:dns resolver pointed at
 * the fake, as the doctor's is when PORTFOLIO_DNS_SERVER names it.
 */
import { ACMClient, DescribeCertificateCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import {
  CloudFormationClient,
  DeleteStackCommand,
  DescribeStacksCommand,
  ListStackResourcesCommand,
  paginateListStackResources,
} from '@aws-sdk/client-cloudformation';
import {
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  DeletePolicyVersionCommand,
  IAMClient,
  ListPolicyVersionsCommand,
} from '@aws-sdk/client-iam';
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import {
  ChangeResourceRecordSetsCommand,
  CreateHostedZoneCommand,
  GetHostedZoneCommand,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
  Route53Client,
} from '@aws-sdk/client-route-53';
import { GetDomainDetailCommand, Route53DomainsClient, UpdateDomainNameserversCommand } from '@aws-sdk/client-route-53-domains';
import {
  CreateEmailIdentityCommand,
  DeleteEmailIdentityCommand,
  GetAccountCommand,
  GetEmailIdentityCommand,
  PutAccountDetailsCommand,
  SESv2Client,
} from '@aws-sdk/client-sesv2';
import { ListSubscriptionsByTopicCommand, paginateListSubscriptionsByTopic, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { Resolver } from 'node:dns/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeAws, type FakeAws } from './fake-aws';

let aws: FakeAws;
let options: { region: string; endpoint: string; credentials: { accessKeyId: string; secretAccessKey: string }; maxAttempts: number };
const hook = async (name: string, query = '') => {
  const res = await fetch(`${aws.url}/__hooks/${name}?${query}`, { method: 'POST' });
  return { status: res.status, body: (await res.json()) as { message?: string } };
};

beforeAll(async () => {
  aws = await startFakeAws({
    registrations: { 'jane.dev': ['ns1.registrar.example'] },
    registrar: { 'joe.dev': ['ns1.registrar.example', 'ns2.registrar.example'] },
  });
  options = { region: 'us-east-1', endpoint: aws.url, credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'fake' }, maxAttempts: 1 };
});
afterAll(() => aws.stop());

describe('Route 53 (REST XML)', () => {
  it('creates zones (a second of one name too, as Route 53 does), lists them by reversed name, reads one, upserts records', async () => {
    const r53 = new Route53Client(options);
    const created = await r53.send(new CreateHostedZoneCommand({ Name: 'joe.dev', CallerReference: 'one' }));
    expect(created.HostedZone?.Name).toBe('joe.dev.');
    expect(created.DelegationSet?.NameServers).toHaveLength(4);
    expect(created.Location).toMatch(/\/hostedzone\/Z/);
    await r53.send(new CreateHostedZoneCommand({ Name: 'b.joe.dev', CallerReference: 'two' }));
    await r53.send(new CreateHostedZoneCommand({ Name: 'apple.dev', CallerReference: 'three', HostedZoneConfig: { PrivateZone: true } }));
    await expect(r53.send(new CreateHostedZoneCommand({ Name: 'joe.dev', CallerReference: 'one' }))).rejects.toMatchObject({
      name: 'HostedZoneAlreadyExists',
    });

    const listed = await r53.send(new ListHostedZonesByNameCommand({ DNSName: 'joe.dev', MaxItems: 10 }));
    // "dev.joe" < "dev.joe.b"; "dev.apple" sorts before the start and is left out.
    expect(listed.HostedZones?.map((z) => [z.Name, z.Config?.PrivateZone])).toEqual([
      ['joe.dev.', false],
      ['b.joe.dev.', false],
    ]);
    const id = created.HostedZone!.Id!;
    const read = await r53.send(new GetHostedZoneCommand({ Id: id }));
    expect(read.DelegationSet?.NameServers).toEqual(created.DelegationSet?.NameServers);
    await expect(r53.send(new GetHostedZoneCommand({ Id: 'ZNOPE' }))).rejects.toMatchObject({ name: 'NoSuchHostedZone' });
    const privateZone = aws.state.zones.find((z) => z.name === 'apple.dev')!;
    expect((await r53.send(new GetHostedZoneCommand({ Id: privateZone.id }))).HostedZone?.Config?.PrivateZone).toBe(true);

    const change = await r53.send(
      new ChangeResourceRecordSetsCommand({
        HostedZoneId: id,
        ChangeBatch: {
          Changes: [
            {
              Action: 'UPSERT',
              ResourceRecordSet: {
                Name: 'a._domainkey.joe.dev',
                Type: 'CNAME',
                TTL: 1800,
                ResourceRecords: [{ Value: 'a.dkim.amazonses.com' }],
              },
            },
          ],
        },
      }),
    );
    expect(change.ChangeInfo?.Status).toBe('PENDING');
    expect(aws.state.zones.find((z) => `/hostedzone/${z.id}` === id)?.records).toEqual({
      'a._domainkey.joe.dev CNAME': ['a.dkim.amazonses.com'],
    });
    // Listed in Route 53's order from the name asked: the apex NS and SOA sort before "dev.joe._domainkey.a".
    const listed2 = await r53.send(
      new ListResourceRecordSetsCommand({
        HostedZoneId: id,
        StartRecordName: 'a._domainkey.joe.dev',
        StartRecordType: 'CNAME',
        MaxItems: 1,
      }),
    );
    expect(listed2.ResourceRecordSets?.map((r) => [r.Name, r.Type, r.ResourceRecords?.[0]?.Value])).toEqual([
      ['a._domainkey.joe.dev.', 'CNAME', 'a.dkim.amazonses.com'],
    ]);
    const apex = await r53.send(new ListResourceRecordSetsCommand({ HostedZoneId: id, MaxItems: 2 }));
    expect([apex.ResourceRecordSets?.map((r) => r.Type), apex.IsTruncated, apex.NextRecordName]).toEqual([
      ['NS', 'SOA'],
      true,
      'a._domainkey.joe.dev.',
    ]);
    const none = await r53.send(
      new ListResourceRecordSetsCommand({
        HostedZoneId: id,
        StartRecordName: 'b._domainkey.joe.dev',
        StartRecordType: 'CNAME',
        MaxItems: 1,
      }),
    );
    expect(none.ResourceRecordSets).toEqual([]);
  });
});

describe('Route 53 Domains (JSON 1.1) and public DNS', () => {
  it('reads and updates a registration here; a domain registered elsewhere is InvalidInput', async () => {
    const domains = new Route53DomainsClient(options);
    expect((await domains.send(new GetDomainDetailCommand({ DomainName: 'jane.dev' }))).Nameservers).toEqual([
      { Name: 'ns1.registrar.example' },
    ]);
    await domains.send(new UpdateDomainNameserversCommand({ DomainName: 'jane.dev', Nameservers: [{ Name: 'ns-1.awsdns-01.org' }] }));
    expect(aws.state.registrations['jane.dev']).toEqual(['ns-1.awsdns-01.org']);
    await expect(domains.send(new GetDomainDetailCommand({ DomainName: 'joe.dev' }))).rejects.toMatchObject({ name: 'InvalidInput' });
  });

  it("answers NS queries over UDP with the registrar's delegation, and NXDOMAIN for a name nobody delegates; the delegate hook moves it to the zone", async () => {
    const resolver = new Resolver({ timeout: 2_000, tries: 1 });
    resolver.setServers([aws.dns]);
    const lookup = (name: string) => resolver.resolveNs(name);
    expect((await lookup('joe.dev')).sort()).toEqual(['ns1.registrar.example', 'ns2.registrar.example']);
    await expect(lookup('nobody.dev')).rejects.toMatchObject({ code: 'ENOTFOUND' });
    await hook('delegate', 'domain=joe.dev');
    const zone = aws.state.zones.find((z) => z.name === 'joe.dev')!;
    expect((await lookup('joe.dev')).sort()).toEqual([...zone.nameServers].sort());
    expect((await hook('delegate', 'domain=nozone.dev')).status).toBe(400);
  });
});

describe('SESv2: the production access review and DKIM', () => {
  it('PutAccountDetails leaves the account PENDING with a case; the hook grants or denies it', async () => {
    const ses = new SESv2Client(options);
    expect((await ses.send(new GetAccountCommand({}))).Details).toBeUndefined();
    await expect(
      ses.send(
        new PutAccountDetailsCommand({ MailType: 'TRANSACTIONAL', WebsiteURL: 'https://www.joe.dev', ContactLanguage: 'FR' as 'EN' }),
      ),
    ).rejects.toMatchObject({ name: 'BadRequestException' });
    await ses.send(
      new PutAccountDetailsCommand({ MailType: 'TRANSACTIONAL', WebsiteURL: 'https://www.joe.dev', ProductionAccessEnabled: true }),
    );
    let account = await ses.send(new GetAccountCommand({}));
    expect([account.ProductionAccessEnabled, account.Details?.ReviewDetails?.Status]).toEqual([false, 'PENDING']);
    const caseId = account.Details?.ReviewDetails?.CaseId;
    expect(caseId).toMatch(/^case-/);
    await expect(
      ses.send(new PutAccountDetailsCommand({ MailType: 'TRANSACTIONAL', WebsiteURL: 'https://www.joe.dev' })),
    ).rejects.toMatchObject({ name: 'ConflictException' });
    await hook('review', 'status=DENIED');
    account = await ses.send(new GetAccountCommand({}));
    expect([account.ProductionAccessEnabled, account.Details?.ReviewDetails]).toEqual([false, { Status: 'DENIED', CaseId: caseId }]);
    await hook('review', 'status=GRANTED');
    expect((await ses.send(new GetAccountCommand({}))).ProductionAccessEnabled).toBe(true);
    expect((await hook('review', 'status=MAYBE')).status).toBe(400);
  });

  it('a domain identity gets three DKIM tokens and is verified by the scan once they answer in public DNS (zone delegated)', async () => {
    const ses = new SESv2Client(options);
    const created = await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'b.joe.dev' }));
    const tokens = created.DkimAttributes?.Tokens ?? [];
    expect(tokens).toHaveLength(3);
    const zone = aws.state.zones.find((z) => z.name === 'b.joe.dev')!;
    for (const t of tokens) zone.records[`${t}._domainkey.b.joe.dev CNAME`] = [`${t}.dkim.amazonses.com`];
    await hook('dkim-scan');
    // b.joe.dev is its own zone, and nobody delegates it yet: SES cannot see the records.
    expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'b.joe.dev' }))).DkimAttributes?.Status).toBe('PENDING');
    await hook('delegate', 'domain=b.joe.dev');
    await hook('dkim-scan');
    const identity = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'b.joe.dev' }));
    expect([identity.IdentityType, identity.VerifiedForSendingStatus, identity.DkimAttributes?.Status]).toEqual([
      'DOMAIN',
      true,
      'SUCCESS',
    ]);
  });

  it('in a region that signs from its own DKIM domain, only CNAMEs into that domain verify the identity', async () => {
    const ses = new SESv2Client({ ...options, region: 'ap-northeast-3' });
    const created = await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'd.joe.dev' }));
    expect(created.DkimAttributes?.SigningHostedZone).toBe('dkim.ap-northeast-3.amazonses.com');
    const tokens = created.DkimAttributes?.Tokens ?? [];
    const zone = aws.state.zones.find((z) => z.name === 'joe.dev')!;
    for (const t of tokens) zone.records[`${t}._domainkey.d.joe.dev CNAME`] = [`${t}.dkim.amazonses.com`];
    await hook('dkim-scan');
    expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'd.joe.dev' }))).DkimAttributes).toMatchObject({
      Status: 'PENDING',
      SigningHostedZone: 'dkim.ap-northeast-3.amazonses.com',
    });
    for (const t of tokens) zone.records[`${t}._domainkey.d.joe.dev CNAME`] = [`${t}.dkim.ap-northeast-3.amazonses.com`];
    await hook('dkim-scan');
    expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'd.joe.dev' }))).DkimAttributes?.Status).toBe('SUCCESS');
  });

  it('dkim-fail: a PENDING domain identity turns FAILED and the scan no longer verifies it; a new identity gets new tokens', async () => {
    const ses = new SESv2Client(options);
    const first = (await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'c.b.joe.dev' }))).DkimAttributes?.Tokens ?? [];
    expect((await hook('dkim-fail', 'identity=nothing.joe.dev')).status).toBe(400);
    await hook('dkim-fail', 'identity=c.b.joe.dev');
    const failed = await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'c.b.joe.dev' }));
    expect([failed.VerificationStatus, failed.DkimAttributes?.Status]).toEqual(['FAILED', 'FAILED']);
    // In b.joe.dev, delegated above: the scan would see these records, but SES looks no more.
    const zone = aws.state.zones.find((z) => z.name === 'b.joe.dev')!;
    for (const t of first) zone.records[`${t}._domainkey.c.b.joe.dev CNAME`] = [`${t}.dkim.amazonses.com`];
    await hook('dkim-scan');
    expect((await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'c.b.joe.dev' }))).DkimAttributes?.Status).toBe('FAILED');
    await ses.send(new DeleteEmailIdentityCommand({ EmailIdentity: 'c.b.joe.dev' }));
    const second = (await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'c.b.joe.dev' }))).DkimAttributes?.Tokens ?? [];
    expect(second.some((t) => first.includes(t))).toBe(false);
  });
});

describe('CloudFormation site stack and SNS (query, XML)', () => {
  it('a deploy makes the stack with its outputs and alarm topic; the owner pending, confirmed, or dropped after 48 h; Subscribe adds once', async () => {
    await hook('deploy', 'stack=Portfolio&owner=jane@joe.dev&others=ops@joe.dev,oncall@joe.dev');
    const cfn = new CloudFormationClient(options);
    const stack = await cfn.send(new DescribeStacksCommand({ StackName: 'Portfolio' }));
    // No output names the API's execute-api address; the API is among the stack's resources.
    expect(stack.Stacks?.[0]?.Outputs).toEqual([{ OutputKey: 'DistributionDomainName', OutputValue: 'd111111abcdef8.cloudfront.net' }]);
    // In pages, the topic after the site's other resources: a caller must follow NextToken to find it.
    const first = await cfn.send(new ListStackResourcesCommand({ StackName: 'Portfolio' }));
    expect([first.StackResourceSummaries?.length, first.NextToken]).toEqual([2, '2']);
    const resources = [];
    for await (const p of paginateListStackResources({ client: cfn }, { StackName: 'Portfolio' }))
      resources.push(...(p.StackResourceSummaries ?? []));
    const topic = resources.find((r) => r.ResourceType === 'AWS::SNS::Topic')?.PhysicalResourceId ?? '';
    expect(resources.find((r) => r.ResourceType === 'AWS::ApiGatewayV2::Api')?.PhysicalResourceId).toMatch(/^api\d+x$/);
    await expect(cfn.send(new ListStackResourcesCommand({ StackName: 'Other' }))).rejects.toMatchObject({ name: 'ValidationError' });

    const sns = new SNSClient(options);
    const list = async () => {
      const all = [];
      for await (const p of paginateListSubscriptionsByTopic({ client: sns }, { TopicArn: topic })) all.push(...(p.Subscriptions ?? []));
      return all.filter((s) => s.Endpoint === 'jane@joe.dev').map((s) => [s.Endpoint, s.SubscriptionArn]);
    };
    expect((await sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: topic }))).Subscriptions?.map((s) => s.Endpoint)).toEqual([
      'ops@joe.dev',
      'oncall@joe.dev',
    ]);
    expect(await list()).toEqual([['jane@joe.dev', 'PendingConfirmation']]);
    await hook('sns-expire');
    expect(await list()).toEqual([]);
    expect((await sns.send(new SubscribeCommand({ TopicArn: topic, Protocol: 'email', Endpoint: 'jane@joe.dev' }))).SubscriptionArn).toBe(
      'pending confirmation',
    );
    await sns.send(new SubscribeCommand({ TopicArn: topic, Protocol: 'email', Endpoint: 'jane@joe.dev' }));
    await hook('sns-confirm', 'endpoint=jane@joe.dev');
    const [endpoint, arn] = (await list())[0] as [string, string];
    expect([endpoint, arn.startsWith(`${topic}:`)]).toEqual(['jane@joe.dev', true]);
    await hook('sns-expire');
    expect(await list()).toHaveLength(1);
    await expect(sns.send(new ListSubscriptionsByTopicCommand({ TopicArn: `${topic}-gone` }))).rejects.toMatchObject({
      name: 'NotFoundException',
    });
  });
});

describe('what the bootstrap step reads and repairs (CloudFormation, IAM, S3), and refusals', () => {
  it("the CDKToolkit stack's status and creation time; DeleteStack removes it in that region only", async () => {
    aws.state.toolkits = { 'us-east-1': 33, 'eu-west-1': 30 };
    aws.state.toolkitStatus = { 'us-east-1': { status: 'ROLLBACK_COMPLETE', since: '2026-11-28T11:50:00Z' } };
    const cfn = new CloudFormationClient(options);
    const failed = (await cfn.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))).Stacks?.[0];
    expect([failed?.StackStatus, failed?.CreationTime?.toISOString()]).toEqual(['ROLLBACK_COMPLETE', '2026-11-28T11:50:00.000Z']);
    await cfn.send(new DeleteStackCommand({ StackName: 'CDKToolkit' }));
    await expect(cfn.send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))).rejects.toMatchObject({ name: 'ValidationError' });
    const other = (
      await new CloudFormationClient({ ...options, region: 'eu-west-1' }).send(new DescribeStacksCommand({ StackName: 'CDKToolkit' }))
    ).Stacks?.[0];
    expect(other?.StackStatus).toBe('CREATE_COMPLETE');
  });

  it('IAM dates each policy version by the account clock and refuses to delete the default one', async () => {
    aws.state.clock = '2026-11-26T12:00:00Z';
    const iam = new IAMClient(options);
    const arn = (await iam.send(new CreatePolicyCommand({ PolicyName: 'dated', PolicyDocument: '{}' }))).Policy!.Arn!;
    await iam.send(new CreatePolicyVersionCommand({ PolicyArn: arn, PolicyDocument: '{"v":2}', SetAsDefault: true }));
    const versions = (await iam.send(new ListPolicyVersionsCommand({ PolicyArn: arn }))).Versions ?? [];
    expect(versions.map((v) => [v.VersionId, v.IsDefaultVersion, v.CreateDate?.toISOString()])).toEqual([
      ['v1', false, '2026-11-26T12:00:00.000Z'],
      ['v2', true, '2026-11-26T12:00:00.001Z'],
    ]);
    await expect(iam.send(new DeletePolicyVersionCommand({ PolicyArn: arn, VersionId: 'v2' }))).rejects.toMatchObject({
      name: 'DeleteConflictException',
    });
    await iam.send(new DeletePolicyVersionCommand({ PolicyArn: arn, VersionId: 'v1' }));
  });

  it('S3 empties and deletes a left-behind bucket; a bucket that is gone is NoSuchBucket', async () => {
    aws.state.buckets = { 'cdk-staging': ['a.zip', 'b.zip'] };
    aws.state.writes = [];
    // No forcePathStyle: the SDK addresses an IP endpoint path-style by itself, as setup's client does.
    const s3 = new S3Client(options);
    await expect(s3.send(new DeleteBucketCommand({ Bucket: 'cdk-staging' }))).rejects.toMatchObject({ name: 'BucketNotEmpty' });
    const listed = await s3.send(new ListObjectVersionsCommand({ Bucket: 'cdk-staging' }));
    expect([listed.Versions?.map((v) => v.Key), listed.IsTruncated]).toEqual([['a.zip', 'b.zip'], false]);
    const objects = listed.Versions!.map((v) => ({ Key: v.Key!, VersionId: v.VersionId }));
    expect(
      (await s3.send(new DeleteObjectsCommand({ Bucket: 'cdk-staging', Delete: { Objects: objects, Quiet: true } }))).Errors,
    ).toBeUndefined();
    await s3.send(new DeleteBucketCommand({ Bucket: 'cdk-staging' }));
    expect(aws.state.buckets).toEqual({});
    expect(aws.state.writes).toEqual(['DeleteObjects cdk-staging', 'DeleteBucket cdk-staging']);
    await expect(s3.send(new DeleteBucketCommand({ Bucket: 'cdk-staging' }))).rejects.toMatchObject({ name: 'NoSuchBucket' });
  });

  it('refuses an IAM action named in denied, in each protocol, and only that one', async () => {
    aws.state.denied = ['ssm:PutParameter', 'ses:CreateEmailIdentity', 'route53:CreateHostedZone', 'cloudformation:DeleteStack'];
    const refused = { name: expect.stringMatching(/^AccessDenied/), message: expect.stringMatching(/not authorized to perform: \w+:\w+/) };
    await expect(
      new SSMClient(options).send(new PutParameterCommand({ Name: '/x', Type: 'SecureString', Value: 'v' })),
    ).rejects.toMatchObject(refused);
    await expect(new SESv2Client(options).send(new CreateEmailIdentityCommand({ EmailIdentity: 'a@joe.dev' }))).rejects.toMatchObject(
      refused,
    );
    await expect(
      new Route53Client(options).send(new CreateHostedZoneCommand({ Name: 'x.dev', CallerReference: 'denied' })),
    ).rejects.toMatchObject(refused);
    await expect(new CloudFormationClient(options).send(new DeleteStackCommand({ StackName: 'Portfolio' }))).rejects.toMatchObject(refused);
    expect((await new SESv2Client(options).send(new GetAccountCommand({}))).SendingEnabled).toBe(true);
    aws.state.denied = [];
  });

  it('ACM dates a certificate by the account clock; SES dates a DKIM key the same way', async () => {
    aws.state.clock = '2026-11-25T08:30:00Z';
    const acm = new ACMClient(options);
    const arn = (await acm.send(new RequestCertificateCommand({ DomainName: 'www.dated.dev', IdempotencyToken: 'dated' }))).CertificateArn!;
    expect((await acm.send(new DescribeCertificateCommand({ CertificateArn: arn }))).Certificate?.CreatedAt?.toISOString()).toBe(
      '2026-11-25T08:30:00.000Z',
    );
    aws.state.certificates[arn]!.status = 'FAILED';
    expect((await acm.send(new DescribeCertificateCommand({ CertificateArn: arn }))).Certificate?.Status).toBe('FAILED');
    const ses = new SESv2Client(options);
    await ses.send(new CreateEmailIdentityCommand({ EmailIdentity: 'dated.dev' }));
    const dkim = (await ses.send(new GetEmailIdentityCommand({ EmailIdentity: 'dated.dev' }))).DkimAttributes;
    expect(dkim?.LastKeyGenerationTimestamp?.toISOString()).toBe('2026-11-25T08:30:00.000Z');
  });
});
