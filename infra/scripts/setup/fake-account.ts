/**
 * A small stateful AWS account for the setup tests, behind aws-sdk-client-mock: what setup writes
 * (identities, parameters, zones, subscriptions) is what the next check reads, so a second run can be
 * asked to change nothing. Test hooks stand in for the people and services setup waits on.
 */
import { ACMClient, DescribeCertificateCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFormationClient, DeleteStackCommand, DescribeStacksCommand, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
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
import {
  CreatePolicyCommand,
  CreatePolicyVersionCommand,
  DeletePolicyVersionCommand,
  GetPolicyCommand,
  GetPolicyVersionCommand,
  IAMClient,
  ListPolicyVersionsCommand,
} from '@aws-sdk/client-iam';
import { DeleteBucketCommand, DeleteObjectsCommand, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { ListSubscriptionsByTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { DescribeParametersCommand, PutParameterCommand, SSMClient } from '@aws-sdk/client-ssm';
import { GetCallerIdentityCommand, STSClient } from '@aws-sdk/client-sts';
import { mockClient } from 'aws-sdk-client-mock';
import type { SetupClients } from './context';
import { awsClient } from '../kit/aws';

export const ACCOUNT = '123456789012';
const awsError = (name: string, message: string) => Object.assign(new Error(message), { name, $metadata: {} });

export interface Identity {
  status: 'PENDING' | 'SUCCESS' | 'FAILED';
  dkim: 'NOT_STARTED' | 'PENDING' | 'SUCCESS' | 'FAILED';
  tokens: string[];
  tags?: { Key: string; Value: string }[];
  /** A domain's DkimAttributes.LastKeyGenerationTimestamp. */
  dkimKeyAt?: Date;
  /** A domain's DkimAttributes.SigningHostedZone: its region's DKIM domain. */
  signingZone?: string;
}
export interface Zone {
  id: string;
  name: string;
  private?: boolean;
  records: Record<string, string>;
  nameServers: string[];
  callerReference?: string;
}

export class FakeAccount {
  sesRegions = new Set(['us-east-1', 'eu-west-1']);
  identities = new Map<string, Identity>();
  production = false;
  review?: { Status: 'PENDING' | 'GRANTED' | 'DENIED' | 'FAILED'; CaseId?: string };
  sendingEnabled = true;
  /** Region → CDKToolkit status and version; absent: not bootstrapped. */
  toolkits = new Map<string, { status: string; version: number; since?: Date; executionPolicies?: string }>();
  /** Customer managed policies: ARN → versions, the last created first-class (IAM keeps at most five). */
  policies = new Map<string, { id: string; document: string; isDefault: boolean; created: Date }[]>();
  /** S3 buckets that exist: name → object count (a failed bootstrap's staging bucket stays). */
  buckets = new Map<string, number>();
  parameters = new Map<string, { type: string; value: string }>();
  zones: Zone[] = [];
  /** Route 53 Domains registrations: domain → its name servers. */
  registrations = new Map<string, string[]>();
  /** The deployed stack's alarm topic, when deployed. */
  topic?: string;
  subscriptions: { endpoint: string; confirmed: boolean }[] = [];
  /** Every write call, in order, as "Command target". */
  writes: string[] = [];
  /** ACM in us-east-1: ARN → the certificate. */
  certificates = new Map<string, { domain: string; token: string; status: 'PENDING_VALIDATION' | 'ISSUED' | 'FAILED'; createdAt?: Date }>();
  /** The account's clock for dates AWS sets itself (a certificate's CreatedAt, a DKIM key's generation). */
  now = () => new Date('2026-11-26T12:00:00Z');
  denied = new Set<string>();
  /** How many times each domain identity was created (its DKIM tokens change each time). */
  keyGenerations = new Map<string, number>();
  noCredentials = false;
  /**
   * Regions whose SES signs from a DKIM domain of its own (DkimAttributes.SigningHostedZone; AWS General
   * Reference, "Amazon Simple Email Service endpoints and quotas": https://docs.aws.amazon.com/general/latest/gr/ses.html);
   * tools/fake-aws.ts holds them all for the spawned tests.
   */
  signingZones: Record<string, string> = { 'af-south-1': 'dkim.af-south-1.amazonses.com' };

  readonly mocks = {
    sts: mockClient(STSClient),
    ses: mockClient(SESv2Client),
    ssm: mockClient(SSMClient),
    cfn: mockClient(CloudFormationClient),
    r53: mockClient(Route53Client),
    domains: mockClient(Route53DomainsClient),
    sns: mockClient(SNSClient),
    acm: mockClient(ACMClient),
    iam: mockClient(IAMClient),
    s3: mockClient(S3Client),
  };

  /** Test hooks: a person clicks the mail link; SES sees the DKIM records; a deploy made the topic. */
  click(address: string) {
    this.identities.get(address)!.status = 'SUCCESS';
  }
  dnsSeen(domain: string) {
    Object.assign(this.identities.get(domain)!, { status: 'SUCCESS', dkim: 'SUCCESS' });
  }
  /** ACM saw the validation record. */
  issue(domain: string) {
    for (const c of this.certificates.values()) if (c.domain === domain) c.status = 'ISSUED';
  }
  deployed() {
    this.topic = `arn:aws:sns:us-east-1:${ACCOUNT}:Portfolio-AlarmTopic`;
    this.subscriptions = [];
  }

  constructor() {
    for (const m of Object.values(this.mocks)) m.reset();
    const { sts, ses, ssm, cfn, r53, domains, sns, acm, iam, s3 } = this.mocks;
    const noPolicy = (arn: string) => awsError('NoSuchEntityException', `Policy ${arn} was not found.`);
    iam.on(GetPolicyCommand).callsFake(({ PolicyArn }: { PolicyArn: string }) => {
      const versions = this.policies.get(PolicyArn);
      if (!versions) throw noPolicy(PolicyArn);
      return { Policy: { Arn: PolicyArn, DefaultVersionId: versions.find((v) => v.isDefault)!.id } };
    });
    iam.on(GetPolicyVersionCommand).callsFake(({ PolicyArn, VersionId }: { PolicyArn: string; VersionId: string }) => {
      const version = this.policies.get(PolicyArn)?.find((v) => v.id === VersionId);
      if (!version) throw noPolicy(PolicyArn);
      return { PolicyVersion: { VersionId, IsDefaultVersion: version.isDefault, Document: encodeURIComponent(version.document) } };
    });
    iam.on(ListPolicyVersionsCommand).callsFake(({ PolicyArn }: { PolicyArn: string }) => ({
      Versions: (this.policies.get(PolicyArn) ?? []).map((v) => ({ VersionId: v.id, IsDefaultVersion: v.isDefault, CreateDate: v.created })),
    }));
    iam.on(CreatePolicyCommand).callsFake(({ PolicyName, PolicyDocument }: { PolicyName: string; PolicyDocument: string }) => {
      const arn = `arn:aws:iam::${ACCOUNT}:policy/${PolicyName}`;
      if (this.policies.has(arn)) throw awsError('EntityAlreadyExistsException', `A policy called ${PolicyName} already exists.`);
      this.writes.push(`CreatePolicy ${PolicyName}`);
      this.policies.set(arn, [{ id: 'v1', document: PolicyDocument, isDefault: true, created: this.now() }]);
      return { Policy: { Arn: arn, DefaultVersionId: 'v1' } };
    });
    iam.on(CreatePolicyVersionCommand).callsFake(({ PolicyArn, PolicyDocument, SetAsDefault }: { PolicyArn: string; PolicyDocument: string; SetAsDefault?: boolean }) => {
      const versions = this.policies.get(PolicyArn);
      if (!versions) throw noPolicy(PolicyArn);
      if (versions.length >= 5) throw awsError('LimitExceededException', 'A managed policy can have up to 5 versions.');
      this.writes.push(`CreatePolicyVersion ${PolicyArn.split('/').pop()}`);
      const id = `v${Math.max(...versions.map((v) => Number(v.id.slice(1)))) + 1}`;
      if (SetAsDefault) for (const v of versions) v.isDefault = false;
      versions.push({ id, document: PolicyDocument, isDefault: SetAsDefault === true, created: new Date(this.now().getTime() + versions.length) });
      return { PolicyVersion: { VersionId: id } };
    });
    iam.on(DeletePolicyVersionCommand).callsFake(({ PolicyArn, VersionId }: { PolicyArn: string; VersionId: string }) => {
      const versions = this.policies.get(PolicyArn) ?? [];
      if (versions.find((v) => v.id === VersionId)?.isDefault) throw awsError('DeleteConflictException', 'Cannot delete the default version of a policy.');
      this.writes.push(`DeletePolicyVersion ${VersionId}`);
      this.policies.set(PolicyArn, versions.filter((v) => v.id !== VersionId));
      return {};
    });
    const noBucket = (bucket: string) => awsError('NoSuchBucket', `The specified bucket ${bucket} does not exist`);
    s3.on(ListObjectVersionsCommand).callsFake(({ Bucket }: { Bucket: string }) => {
      if (!this.buckets.has(Bucket)) throw noBucket(Bucket);
      const count = this.buckets.get(Bucket)!;
      return { Versions: Array.from({ length: count }, (_, i) => ({ Key: `asset-${i}.zip`, VersionId: `v${i}` })), IsTruncated: false };
    });
    s3.on(DeleteObjectsCommand).callsFake(({ Bucket }: { Bucket: string }) => {
      this.writes.push(`DeleteObjects ${Bucket}`);
      this.buckets.set(Bucket, 0);
      return {};
    });
    s3.on(DeleteBucketCommand).callsFake(({ Bucket }: { Bucket: string }) => {
      if (!this.buckets.has(Bucket)) throw noBucket(Bucket);
      if (this.buckets.get(Bucket)! > 0) throw awsError('BucketNotEmpty', 'The bucket you tried to delete is not empty');
      this.writes.push(`DeleteBucket ${Bucket}`);
      this.buckets.delete(Bucket);
      return {};
    });
    acm.on(RequestCertificateCommand).callsFake(({ DomainName, IdempotencyToken }: { DomainName: string; IdempotencyToken: string }) => {
      this.writes.push(`RequestCertificate ${DomainName}`);
      const same = [...this.certificates.entries()].find(([, c]) => c.token === IdempotencyToken && c.domain === DomainName);
      if (same) return { CertificateArn: same[0] };
      const arn = `arn:aws:acm:us-east-1:${ACCOUNT}:certificate/0000000${this.certificates.size}-aaaa-bbbb-cccc-000000000000`;
      this.certificates.set(arn, { domain: DomainName, token: IdempotencyToken, status: 'PENDING_VALIDATION', createdAt: this.now() });
      return { CertificateArn: arn };
    });
    acm.on(DescribeCertificateCommand).callsFake(({ CertificateArn }: { CertificateArn: string }) => {
      const c = this.certificates.get(CertificateArn);
      if (!c) throw awsError('ResourceNotFoundException', `Could not find certificate ${CertificateArn}`);
      return {
        Certificate: {
          CertificateArn,
          DomainName: c.domain,
          Status: c.status,
          CreatedAt: c.createdAt,
          DomainValidationOptions: [{ DomainName: c.domain, ResourceRecord: { Name: `_x1.${c.domain}.`, Type: 'CNAME', Value: '_x2.acm-validations.aws.' } }],
        },
      };
    });
    const guard = (action: string) => {
      if (this.denied.has(action)) throw awsError('AccessDeniedException', `User is not authorized to perform: ${action}`);
    };
    sts.on(GetCallerIdentityCommand).callsFake(() => {
      if (this.noCredentials) throw awsError('CredentialsProviderError', 'Could not load credentials from any providers');
      return { Account: ACCOUNT, Arn: `arn:aws:iam::${ACCOUNT}:user/jane` };
    });
    ses.on(GetAccountCommand).callsFake(async (_input, getClient) => {
      const region = await getClient().config.region();
      if (!this.sesRegions.has(region)) throw Object.assign(new Error(`getaddrinfo ENOTFOUND email.${region}.amazonaws.com`), { code: 'ENOTFOUND' });
      guard('ses:GetAccount');
      return {
        ProductionAccessEnabled: this.production,
        SendingEnabled: this.sendingEnabled,
        SendQuota: { Max24HourSend: 200, MaxSendRate: 1 },
        ...(this.review ? { Details: { ReviewDetails: this.review } } : {}),
      };
    });
    ses.on(GetEmailIdentityCommand).callsFake(async ({ EmailIdentity }: { EmailIdentity: string }) => {
      const identity = this.identities.get(EmailIdentity);
      if (!identity) throw awsError('NotFoundException', 'Email identity does not exist.');
      const address = EmailIdentity.includes('@');
      return {
        IdentityType: address ? 'EMAIL_ADDRESS' : 'DOMAIN',
        VerificationStatus: identity.status,
        VerifiedForSendingStatus: identity.status === 'SUCCESS',
        DkimAttributes: address
          ? undefined
          : { Status: identity.dkim, Tokens: identity.tokens, LastKeyGenerationTimestamp: identity.dkimKeyAt, SigningHostedZone: identity.signingZone ?? 'dkim.amazonses.com' },
        Tags: identity.tags ?? [],
      };
    });
    ses.on(CreateEmailIdentityCommand).callsFake(async ({ EmailIdentity, Tags }: { EmailIdentity: string; Tags?: { Key: string; Value: string }[] }, getClient) => {
      const region = await getClient().config.region();
      guard('ses:CreateEmailIdentity');
      this.writes.push(`CreateEmailIdentity ${EmailIdentity}`);
      if (this.identities.has(EmailIdentity)) throw awsError('AlreadyExistsException', 'exists');
      const address = EmailIdentity.includes('@');
      // SES generates a new key pair (new tokens) each time a domain identity is created.
      const generation = (this.keyGenerations.get(EmailIdentity) ?? 0) + 1;
      this.keyGenerations.set(EmailIdentity, generation);
      const tokens = address ? [] : ['tok1', 'tok2', 'tok3'].map((t) => (generation > 1 ? `${t}v${generation}` : t));
      const signingZone = address ? undefined : (this.signingZones[region] ?? 'dkim.amazonses.com');
      this.identities.set(EmailIdentity, { status: 'PENDING', dkim: address ? 'NOT_STARTED' : 'PENDING', tokens, tags: Tags, dkimKeyAt: address ? undefined : this.now(), signingZone });
      return { IdentityType: address ? 'EMAIL_ADDRESS' : 'DOMAIN', DkimAttributes: { Tokens: tokens, SigningHostedZone: signingZone } };
    });
    ses.on(DeleteEmailIdentityCommand).callsFake(({ EmailIdentity }: { EmailIdentity: string }) => {
      guard('ses:DeleteEmailIdentity');
      if (!this.identities.has(EmailIdentity)) throw awsError('NotFoundException', 'Email identity does not exist.');
      this.writes.push(`DeleteEmailIdentity ${EmailIdentity}`);
      this.identities.delete(EmailIdentity);
      return {};
    });
    ses.on(PutAccountDetailsCommand).callsFake((input: Record<string, unknown>) => {
      this.writes.push(`PutAccountDetails ${JSON.stringify(input)}`);
      this.review = { Status: 'PENDING', CaseId: 'case-1' };
      return {};
    });
    ssm.on(DescribeParametersCommand).callsFake(({ ParameterFilters }: { ParameterFilters: { Values: string[] }[] }) => {
      const name = ParameterFilters[0]!.Values[0]!;
      const p = this.parameters.get(name);
      return { Parameters: p ? [{ Name: name, Type: p.type }] : [] };
    });
    ssm.on(PutParameterCommand).callsFake(({ Name, Type, Value, Overwrite }: { Name: string; Type: string; Value: string; Overwrite?: boolean }) => {
      guard('ssm:PutParameter');
      this.writes.push(`PutParameter ${Name} ${Type}${Overwrite ? ' overwrite' : ''}`);
      if (this.parameters.has(Name) && !Overwrite) throw awsError('ParameterAlreadyExists', 'exists');
      this.parameters.set(Name, { type: Type, value: Value });
      return { Version: 1 };
    });
    cfn.on(DescribeStacksCommand).callsFake(async ({ StackName }: { StackName: string }, getClient) => {
      const region = await getClient().config.region();
      if (StackName !== 'CDKToolkit' && this.topic) {
        return { Stacks: [{ StackName, StackStatus: 'CREATE_COMPLETE', Outputs: [{ OutputKey: 'DistributionDomainName', OutputValue: 'd111111abcdef8.cloudfront.net' }] }] };
      }
      const toolkit = StackName === 'CDKToolkit' ? this.toolkits.get(region) : undefined;
      if (!toolkit) throw awsError('ValidationError', `Stack with id ${StackName} does not exist`);
      return {
        Stacks: [
          {
            StackName,
            StackStatus: toolkit.status,
            CreationTime: toolkit.since,
            Outputs: [{ OutputKey: 'BootstrapVersion', OutputValue: String(toolkit.version) }],
            Parameters: [{ ParameterKey: 'CloudFormationExecutionPolicies', ParameterValue: toolkit.executionPolicies ?? '' }],
          },
        ],
      };
    });
    cfn.on(DeleteStackCommand).callsFake(async (_input, getClient) => {
      const region = await getClient().config.region();
      this.writes.push(`DeleteStack CDKToolkit ${region}`);
      this.toolkits.delete(region);
      return {};
    });
    cfn.on(ListStackResourcesCommand).callsFake(({ StackName }: { StackName: string }) => {
      if (!this.topic) throw awsError('ValidationError', `Stack with id ${StackName} does not exist`);
      return { StackResourceSummaries: [{ ResourceType: 'AWS::SNS::Topic', PhysicalResourceId: this.topic, LogicalResourceId: 'AlarmTopic' }] };
    });
    r53.on(ListHostedZonesByNameCommand).callsFake(({ DNSName }: { DNSName: string }) => ({
      HostedZones: this.zones
        .filter((z) => z.name >= DNSName)
        .sort((a, b) => a.name.localeCompare(b.name))
        .map((z) => ({ Id: `/hostedzone/${z.id}`, Name: `${z.name}.`, CallerReference: 'x', Config: { PrivateZone: z.private === true } })),
    }));
    r53.on(GetHostedZoneCommand).callsFake(({ Id }: { Id: string }) => {
      const zone = this.zones.find((z) => z.id === Id);
      if (!zone) throw awsError('NoSuchHostedZone', `No hosted zone found with ID: ${Id}`);
      return {
        HostedZone: { Id: `/hostedzone/${zone.id}`, Name: `${zone.name}.`, CallerReference: zone.callerReference ?? 'x', Config: { PrivateZone: zone.private === true } },
        DelegationSet: { NameServers: zone.nameServers },
      };
    });
    r53.on(CreateHostedZoneCommand).callsFake(({ Name, CallerReference }: { Name: string; CallerReference: string }) => {
      guard('route53:CreateHostedZone');
      this.writes.push(`CreateHostedZone ${Name}`);
      const id = `ZNEW${this.zones.length}ABCDEF`;
      this.zones.push({ id, name: Name, records: {}, nameServers: ['ns-9.awsdns-09.org', 'ns-8.awsdns-08.net'], callerReference: CallerReference });
      return { HostedZone: { Id: `/hostedzone/${id}`, Name: `${Name}.`, CallerReference: 'x' } };
    });
    r53.on(ChangeResourceRecordSetsCommand).callsFake(
      ({ HostedZoneId, ChangeBatch }: { HostedZoneId: string; ChangeBatch: { Changes: { ResourceRecordSet: { Name: string; ResourceRecords: { Value: string }[] } }[] } }) => {
        const zone = this.zones.find((z) => z.id === HostedZoneId)!;
        for (const c of ChangeBatch.Changes) {
          this.writes.push(`UPSERT ${c.ResourceRecordSet.Name}`);
          zone.records[c.ResourceRecordSet.Name] = c.ResourceRecordSet.ResourceRecords[0]!.Value;
        }
        return { ChangeInfo: { Id: 'c', Status: 'PENDING', SubmittedAt: new Date() } };
      },
    );
    r53.on(ListResourceRecordSetsCommand).callsFake(({ HostedZoneId, StartRecordName }: { HostedZoneId: string; StartRecordName: string }) => {
      const zone = this.zones.find((z) => z.id === HostedZoneId)!;
      const value = zone.records[StartRecordName];
      // Only the record asked for (the next one in Route 53's order is never a match for setup anyway).
      return { ResourceRecordSets: value ? [{ Name: `${StartRecordName}.`, Type: 'CNAME', TTL: 1800, ResourceRecords: [{ Value: value }] }] : [], IsTruncated: false, MaxItems: 1 };
    });
    domains.on(GetDomainDetailCommand).callsFake(({ DomainName }: { DomainName: string }) => {
      const ns = this.registrations.get(DomainName);
      if (!ns) throw awsError('InvalidInput', 'not registered here');
      return { DomainName, Nameservers: ns.map((Name) => ({ Name })) };
    });
    domains.on(UpdateDomainNameserversCommand).callsFake(({ DomainName, Nameservers }: { DomainName: string; Nameservers: { Name: string }[] }) => {
      this.writes.push(`UpdateDomainNameservers ${DomainName}`);
      this.registrations.set(DomainName, Nameservers.map((n) => n.Name));
      return { OperationId: 'op' };
    });
    sns.on(ListSubscriptionsByTopicCommand).callsFake(() => ({
      Subscriptions: this.subscriptions.map((s) => ({
        Protocol: 'email',
        Endpoint: s.endpoint,
        SubscriptionArn: s.confirmed ? `${this.topic}:sub` : 'PendingConfirmation',
      })),
    }));
    sns.on(SubscribeCommand).callsFake(({ Endpoint }: { Endpoint: string }) => {
      this.writes.push(`Subscribe ${Endpoint}`);
      this.subscriptions.push({ endpoint: Endpoint, confirmed: false });
      return { SubscriptionArn: 'pending confirmation' };
    });
  }

  clients = (region: string): SetupClients => ({
    sts: awsClient(STSClient, { region }),
    sesv2: awsClient(SESv2Client, { region }),
    ssm: awsClient(SSMClient, { region }),
    sns: awsClient(SNSClient, { region }),
    iam: awsClient(IAMClient, { region }),
    s3: (r) => awsClient(S3Client, { region: r }),
    cloudFormation: (r) => awsClient(CloudFormationClient, { region: r }),
    route53: awsClient(Route53Client, { region: 'us-east-1' }),
    route53Domains: awsClient(Route53DomainsClient, { region: 'us-east-1' }),
    acm: awsClient(ACMClient, { region: 'us-east-1' }),
    resolveNs: () => Promise.reject(new Error('no public DNS in tests')),
  });
}
