/**
 * A small stateful AWS on 127.0.0.1 for the setup and doctor tests that spawn the real commands, speaking
 * each service's wire protocol as the AWS SDK v3 clients send it: STS, CloudFormation, IAM and SNS (query
 * protocol, XML), SSM, ACM and Route 53 Domains (JSON 1.1), SESv2 (REST JSON), Route 53 (REST XML on
 * /2013-04-01/...) and S3 (REST XML, path-style), routed by the service in the request's signature scope;
 * point the SDK at it with AWS_ENDPOINT_URL and dummy keys (a spawned command), or hold its `state` and
 * change it between runs (the in-process setup tests). An IAM action in `denied` is refused as AWS does. Public DNS is a UDP server on its own port (`dns`; the doctor asks it
 * when PORTFOLIO_DNS_SERVER names it): it answers NS queries with what the registrar delegates to.
 * Test hooks (POST /__hooks/...) stand in for the people and services setup waits on; GET /__state
 * shows the account.
 */
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';
import { type PolicyStatementJson, policyAllows } from './fake-iam';

export interface FakeZone {
  id: string;
  name: string;
  private: boolean;
  callerReference: string;
  nameServers: string[];
  /** "name TYPE" (name without the final dot) → values. */
  records: Record<string, string[]>;
}
export interface FakeSubscription {
  protocol: string;
  endpoint: string;
  /** The owner clicked the confirmation link (hook). */
  confirmed: boolean;
  arn: string;
}

export interface FakeAwsState {
  account: string;
  identities: Record<string, 'PENDING' | 'SUCCESS' | 'FAILED'>;
  /** Domain identities: their Easy DKIM tokens and status (SUCCESS once SES sees the CNAMEs, a hook). */
  dkim: Record<string, { tokens: string[]; status: 'PENDING' | 'SUCCESS' | 'FAILED'; zone?: string; keyAt?: string }>;
  /** The tags each identity was created with (CreateEmailIdentity Tags; GetEmailIdentity returns them). */
  identityTags: Record<string, { Key: string; Value: string }[]>;
  production: boolean;
  /** The production access review PutAccountDetails opened (a hook grants or denies it). */
  review?: { status: 'PENDING' | 'GRANTED' | 'DENIED' | 'FAILED'; caseId: string; websiteUrl: string; request?: Record<string, unknown> };
  /** Region → CDKToolkit bootstrap version. */
  toolkits: Record<string, number>;
  /**
   * Region → the CDKToolkit stack's StackStatus and CreationTime (ISO) when it is not a CREATE_COMPLETE of
   * 2026-01-01: a failed bootstrap (ROLLBACK_COMPLETE), one CloudFormation is still working on.
   */
  toolkitStatus: Record<string, { status: string; since?: string }>;
  /** Region → the CDKToolkit stack's CloudFormationExecutionPolicies parameter ("" or absent: AdministratorAccess). */
  toolkitPolicies: Record<string, string>;
  /** Region → the CDKToolkit stack's InputPermissionsBoundary parameter ("" or absent: no boundary). */
  toolkitBoundaries: Record<string, string>;
  /** IAM customer managed policies: ARN → versions (id, URL-encoded when returned, default or not). */
  policies: Record<string, { id: string; document: string; isDefault: boolean; created?: string }[]>;
  parameters: Record<string, { type: string; value: string }>;
  /** ACM (us-east-1): ARN → the certificate; ISSUED once the test publishes the validation record. */
  certificates: Record<string, { domain: string; token: string; status: 'PENDING_VALIDATION' | 'ISSUED' | 'FAILED'; createdAt?: string }>;
  /** What the owner published at their DNS host (hook): name → value. */
  dns: Record<string, string>;
  /** Route 53 hosted zones of the account. */
  zones: FakeZone[];
  /** Domains registered with Route 53 Domains in this account → their name servers. */
  registrations: Record<string, string[]>;
  /** Domains registered elsewhere → the name servers their registrar delegates to (what public DNS answers). */
  registrar: Record<string, string[]>;
  /** Deployed stacks by name: outputs and resources (a hook "deploys"). */
  stacks: Record<string, { outputs: Record<string, string>; resources: { logicalId: string; type: string; physicalId: string }[] }>;
  /** SNS topic ARN → its subscriptions. */
  topics: Record<string, FakeSubscription[]>;
  /** S3 buckets → the keys of the objects they hold (a failed bootstrap's staging bucket stays behind). */
  buckets: Record<string, string[]>;
  /**
   * AWS Budgets of the account by name: the amount, the month's spend and forecast (a hook sets them),
   * and each alert as "ACTUAL>80%" mailed to its subscribers.
   */
  budgets: Record<string, { limit: string; actual: string; forecast: string; alerts: string[]; subscribers: string[] }>;
  /** HTTP APIs by id: their $default stage's route settings (a deploy makes one with each route's own throttle). */
  apis: Record<string, { routeSettings: Record<string, { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }> }>;
  /** IAM actions ("ssm:PutParameter") these credentials may not call: AccessDenied, in each protocol's form. */
  denied: string[];
  /**
   * The identity policy of the role these credentials stand for, when set: every request is checked
   * against it (tools/fake-iam.ts; S3 requests by their object or bucket ARN, s3:prefix and
   * aws:ResourceAccount, any other service's by "*") and refused with AccessDenied when it is not allowed.
   */
  policy?: PolicyStatementJson[];
  /** The account's clock (ISO) for the dates AWS sets itself: a certificate's CreatedAt, a DKIM key's generation, a policy version's CreateDate. */
  clock: string;
  /** Every write, in order. */
  writes: string[];
}

export interface FakeAws {
  url: string;
  /** host:port of the fake public DNS (UDP). */
  dns: string;
  state: FakeAwsState;
  stop(): Promise<void>;
}

const xml = (action: string, result: string) =>
  `<${action}Response xmlns="https://aws.amazon.com/doc/"><${action}Result>${result}</${action}Result>` +
  `<ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata></${action}Response>`;
const xmlError = (code: string, message: string) =>
  `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/**
 * The DKIM domain SES signs from in a region (DkimAttributes.SigningHostedZone): its own in a few regions
 * (AWS General Reference, "Amazon Simple Email Service endpoints and quotas", Easy DKIM domains:
 * https://docs.aws.amazon.com/general/latest/gr/ses.html), dkim.amazonses.com elsewhere.
 */
export const DKIM_SIGNING_ZONES: Record<string, string> = {
  'af-south-1': 'dkim.af-south-1.amazonses.com',
  'ap-south-2': 'dkim.ap-south-2.amazonses.com',
  'ap-southeast-3': 'dkim.ap-southeast-3.amazonses.com',
  'ap-northeast-3': 'dkim.ap-northeast-3.amazonses.com',
};
export const signingZoneOf = (region: string): string => DKIM_SIGNING_ZONES[region] ?? 'dkim.amazonses.com';
const unescape = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
/** The text of every <tag>…</tag> in `text` (the request bodies here have no nested tags of one name). */
const tags = (text: string, tag: string) => [...text.matchAll(new RegExp(`<${tag}>([\\s\\S]*?)</${tag}>`, 'g'))].map((m) => m[1]!);
const tag = (text: string, name: string) => unescape(tags(text, name)[0] ?? '');
const bare = (name: string) => name.trim().toLowerCase().replace(/\.$/, '');
/** Route 53 lists zones by name with the labels reversed ("com.example.www"): ListHostedZonesByName. */
const reversed = (name: string) => bare(name).split('.').reverse().join('.');

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'text/xml', ...headers });
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(res, status, JSON.stringify(body), { 'content-type': 'application/x-amz-json-1.1', ...headers });
/** A JSON 1.1 error (400), named by its __type. */
const jsonError = (res: ServerResponse, type: string, message: string) => sendJson(res, 400, { __type: type, message });
/** A REST XML answer (Route 53, S3): `inner` in the `element` of the service's namespace `ns`. */
const sendXml = (res: ServerResponse, ns: string, element: string, inner: string, status = 200, headers: Record<string, string> = {}) =>
  send(res, status, `<?xml version="1.0"?><${element} ${ns}>${inner}</${element}>`, headers);
/** A REST JSON answer (SESv2, API Gateway), an error named by its x-amzn-errortype. */
const restJson = (res: ServerResponse, status: number, body: unknown, type?: string) =>
  send(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...(type ? { 'x-amzn-errortype': type } : {}) });

/** A DNS name in wire form (no compression). */
function encodeName(name: string): Buffer {
  return Buffer.concat([
    ...bare(name)
      .split('.')
      .filter(Boolean)
      .map((l) => Buffer.concat([Buffer.from([l.length]), Buffer.from(l)])),
    Buffer.from([0]),
  ]);
}

/**
 * The answer to one DNS query (RFC 1035, section 4): NS records of `answers(name)`, or NXDOMAIN when it
 * returns nothing; any other type gets an empty answer.
 */
export function dnsAnswer(query: Buffer, answers: (name: string) => string[] | undefined): Buffer {
  let offset = 12;
  const labels: string[] = [];
  while (query[offset]! > 0) {
    labels.push(query.subarray(offset + 1, offset + 1 + query[offset]!).toString());
    offset += query[offset]! + 1;
  }
  const qtype = query.readUInt16BE(offset + 1);
  const question = query.subarray(12, offset + 5);
  const found = answers(labels.join('.'));
  const records = qtype === 2 && found ? found : [];
  const header = Buffer.alloc(12);
  header.writeUInt16BE(query.readUInt16BE(0), 0);
  // QR, AA, RD copied, RA; RCODE 3 (NXDOMAIN) for a name nobody delegates.
  header.writeUInt16BE(0x8400 | (query.readUInt16BE(2) & 0x0100) | 0x0080 | (found ? 0 : 3), 2);
  header.writeUInt16BE(1, 4);
  header.writeUInt16BE(records.length, 6);
  const rrs = records.map((ns) => {
    const rdata = encodeName(ns);
    const fixed = Buffer.alloc(12);
    fixed.writeUInt16BE(0xc00c, 0); // the question's name
    fixed.writeUInt16BE(2, 2); // NS
    fixed.writeUInt16BE(1, 4); // IN
    fixed.writeUInt32BE(300, 6);
    fixed.writeUInt16BE(rdata.length, 10);
    return Buffer.concat([fixed, rdata]);
  });
  return Buffer.concat([header, question, ...rrs]);
}

/** Items per page of ListStackResources and ListSubscriptionsByTopic (see `page`). */
export const PAGE_SIZE = 2;

/** A path-style S3 request's bucket and object key ("" for a bucket-level call). */
function s3Path(url: URL): { bucket: string; key: string } {
  const [, bucket = '', ...rest] = url.pathname.split('/');
  return { bucket: decodeURIComponent(bucket), key: decodeURIComponent(rest.join('/')) };
}

/** What the services' handlers and the hooks share: the account's state, and the serial of the ids they make. */
type Fake = { state: FakeAwsState; next: () => string };

const validation = (domain: string) => ({
  Name: `_v.${domain}.`,
  Type: 'CNAME',
  Value: `_v-${domain.replace(/\./g, '-')}.acm-validations.aws.`,
});

/** The name servers public DNS gives for a domain: its registrar's (Route 53 Domains' or another's). */
const delegation = (state: FakeAwsState, name: string) => state.registrations[bare(name)] ?? state.registrar[bare(name)];

/** A record public DNS answers: in a public zone the registrar delegates to, or published at the owner's DNS host. */
function published({ state }: Fake, name: string, type: string): string[] {
  const host = state.dns[`${bare(name)}.`] ?? state.dns[bare(name)];
  if (host) return [host];
  const zone = state.zones
    .filter((z) => !z.private && (bare(name) === z.name || bare(name).endsWith(`.${z.name}`)))
    .sort((a, b) => b.name.length - a.name.length)[0];
  const ns = zone && delegation(state, zone.name);
  if (!zone || !ns || [...ns].sort().join() !== [...zone.nameServers].sort().join()) return [];
  return zone.records[`${bare(name)} ${type}`] ?? [];
}

/**
 * One page of a paginated list, and the <NextToken> of the next. AWS's pages are larger (SNS: up to 100
 * subscriptions; CloudFormation: up to 1 MB of resources); these are tiny so a caller that reads only
 * the first page misses things here too.
 */
function page<T>(list: T[], token: string | null) {
  const start = Number(token ?? 0);
  const end = start + PAGE_SIZE;
  return { items: list.slice(start, end), nextToken: end < list.length ? `<NextToken>${end}</NextToken>` : '' };
}

/**
 * IAM's query API for the bootstrap's execution policy (IAM API Reference: GetPolicy, GetPolicyVersion,
 * ListPolicyVersions, CreatePolicy, CreatePolicyVersion, DeletePolicyVersion; NoSuchEntity is 404,
 * at most five versions: https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreatePolicyVersion.html).
 */
function iam({ state }: Fake, res: ServerResponse, action: string, form: URLSearchParams) {
  const ok = (result: string) => send(res, 200, xml(action, result));
  const arn = form.get('PolicyArn') ?? '';
  const versions = state.policies[arn];
  const missing = () => send(res, 404, xmlError('NoSuchEntity', `Policy ${escape(arn)} was not found.`));
  const version = (v: { id: string; isDefault: boolean; created?: string }) =>
    `<VersionId>${v.id}</VersionId><IsDefaultVersion>${v.isDefault}</IsDefaultVersion><CreateDate>${v.created ?? '2026-01-01T00:00:00Z'}</CreateDate>`;
  if (action === 'GetPolicy') {
    if (!versions) return missing();
    return ok(`<Policy><Arn>${escape(arn)}</Arn><DefaultVersionId>${versions.find((v) => v.isDefault)!.id}</DefaultVersionId></Policy>`);
  }
  if (action === 'GetPolicyVersion') {
    const found = versions?.find((v) => v.id === form.get('VersionId'));
    if (!found) return missing();
    return ok(`<PolicyVersion>${version(found)}<Document>${escape(encodeURIComponent(found.document))}</Document></PolicyVersion>`);
  }
  if (action === 'ListPolicyVersions') {
    if (!versions) return missing();
    return ok(`<Versions>${versions.map((v) => `<member>${version(v)}</member>`).join('')}</Versions><IsTruncated>false</IsTruncated>`);
  }
  if (action === 'CreatePolicy') {
    const created = `arn:aws:iam::${state.account}:policy/${form.get('PolicyName') ?? ''}`;
    if (state.policies[created]) return send(res, 409, xmlError('EntityAlreadyExists', 'A policy with that name already exists.'));
    state.policies[created] = [{ id: 'v1', document: form.get('PolicyDocument') ?? '', isDefault: true, created: state.clock }];
    state.writes.push(`CreatePolicy ${form.get('PolicyName')}`);
    return ok(`<Policy><Arn>${escape(created)}</Arn><DefaultVersionId>v1</DefaultVersionId></Policy>`);
  }
  if (action === 'CreatePolicyVersion') {
    if (!versions) return missing();
    if (versions.length >= 5) return send(res, 409, xmlError('LimitExceeded', 'A managed policy can have up to 5 versions.'));
    const id = `v${Math.max(...versions.map((v) => Number(v.id.slice(1)))) + 1}`;
    const isDefault = form.get('SetAsDefault') === 'true';
    if (isDefault) for (const v of versions) v.isDefault = false;
    // A millisecond per version: the newest is the latest, as IAM's CreateDate orders them.
    const created = new Date(Date.parse(state.clock) + versions.length).toISOString();
    versions.push({ id, document: form.get('PolicyDocument') ?? '', isDefault, created });
    state.writes.push(`CreatePolicyVersion ${arn.split('/').pop()}`);
    return ok(`<PolicyVersion>${version({ id, isDefault, created })}</PolicyVersion>`);
  }
  if (action === 'DeletePolicyVersion') {
    if (!versions) return missing();
    // DeletePolicyVersion "cannot delete the default version from a policy"; its conflict error is
    // DeleteConflict (409): https://docs.aws.amazon.com/IAM/latest/APIReference/API_DeletePolicyVersion.html
    if (versions.find((v) => v.id === form.get('VersionId'))?.isDefault)
      return send(res, 409, xmlError('DeleteConflict', 'Cannot delete the default version of a policy.'));
    state.policies[arn] = versions.filter((v) => v.id !== form.get('VersionId'));
    state.writes.push(`DeletePolicyVersion ${form.get('VersionId')}`);
    return ok('');
  }
  return send(res, 400, xmlError('InvalidAction', `the fake does not know iam ${escape(action)}`));
}

function query(fake: Fake, res: ServerResponse, service: string, region: string, form: URLSearchParams) {
  const { state, next } = fake;
  const action = form.get('Action') ?? '';
  const ok = (result: string) => send(res, 200, xml(action, result));
  if (service === 'sts' && action === 'GetCallerIdentity') {
    return ok(`<Arn>arn:aws:iam::${state.account}:user/jane</Arn><UserId>AIDAFAKE</UserId><Account>${state.account}</Account>`);
  }
  const stackName = form.get('StackName') ?? '';
  const noStack = () => send(res, 400, xmlError('ValidationError', `Stack with id ${escape(stackName)} does not exist`));
  if (service === 'cloudformation' && action === 'DescribeStacks') {
    const site = state.stacks[stackName];
    const version = stackName === 'CDKToolkit' ? state.toolkits[region] : undefined;
    if (version === undefined && !site) return noStack();
    const status = site ? undefined : state.toolkitStatus[region];
    const outputs = site ? site.outputs : { BootstrapVersion: String(version) };
    const members = Object.entries(outputs).map(
      ([k, v]) => `<member><OutputKey>${k}</OutputKey><OutputValue>${escape(v)}</OutputValue></member>`,
    );
    const parameters = site
      ? ''
      : `<Parameters><member><ParameterKey>CloudFormationExecutionPolicies</ParameterKey><ParameterValue>${escape(state.toolkitPolicies[region] ?? '')}</ParameterValue></member>` +
        `<member><ParameterKey>InputPermissionsBoundary</ParameterKey><ParameterValue>${escape(state.toolkitBoundaries[region] ?? '')}</ParameterValue></member></Parameters>`;
    return ok(
      `<Stacks><member><StackName>${escape(stackName)}</StackName><StackStatus>${status?.status ?? 'CREATE_COMPLETE'}</StackStatus>` +
        (status && !status.since ? '' : `<CreationTime>${status?.since ?? '2026-01-01T00:00:00Z'}</CreationTime>`) +
        `<Outputs>${members.join('')}</Outputs>${parameters}</member></Stacks>`,
    );
  }
  if (service === 'cloudformation' && action === 'ListStackResources') {
    const site = state.stacks[stackName];
    if (!site) return noStack();
    const { items, nextToken } = page(site.resources, form.get('NextToken'));
    const members = items.map(
      (r) =>
        `<member><LogicalResourceId>${r.logicalId}</LogicalResourceId><PhysicalResourceId>${escape(r.physicalId)}</PhysicalResourceId>` +
        `<ResourceType>${r.type}</ResourceType><LastUpdatedTimestamp>2026-01-01T00:00:00Z</LastUpdatedTimestamp><ResourceStatus>CREATE_COMPLETE</ResourceStatus></member>`,
    );
    return ok(`<StackResourceSummaries>${members.join('')}</StackResourceSummaries>${nextToken}`);
  }
  if (service === 'iam') return iam(fake, res, action, form);
  if (service === 'cloudformation' && action === 'DeleteStack') {
    if (stackName === 'CDKToolkit')
      [state.toolkits, state.toolkitStatus, state.toolkitPolicies, state.toolkitBoundaries].forEach((byRegion) => delete byRegion[region]);
    else delete state.stacks[stackName];
    state.writes.push(`DeleteStack ${stackName} ${region}`);
    return ok('');
  }
  if (service === 'sns') {
    // SNS query API: https://docs.aws.amazon.com/sns/latest/api/API_ListSubscriptionsByTopic.html (NotFound: 404)
    const topicArn = form.get('TopicArn') ?? '';
    const subscriptions = state.topics[topicArn];
    if (!subscriptions) return send(res, 404, xmlError('NotFound', 'Topic does not exist'));
    if (action === 'ListSubscriptionsByTopic') {
      const { items, nextToken } = page(subscriptions, form.get('NextToken'));
      const members = items.map(
        (s) =>
          `<member><TopicArn>${escape(topicArn)}</TopicArn><Protocol>${s.protocol}</Protocol><Endpoint>${escape(s.endpoint)}</Endpoint>` +
          // An unconfirmed subscription has no ARN yet: "PendingConfirmation".
          `<SubscriptionArn>${s.confirmed ? escape(s.arn) : 'PendingConfirmation'}</SubscriptionArn><Owner>${state.account}</Owner></member>`,
      );
      return ok(`<Subscriptions>${members.join('')}</Subscriptions>${nextToken}`);
    }
    if (action === 'Subscribe') {
      const [protocol, endpoint] = [form.get('Protocol') ?? '', form.get('Endpoint') ?? ''];
      state.writes.push(`Subscribe ${topicArn} ${protocol} ${endpoint}`);
      let sub = subscriptions.find((s) => s.protocol === protocol && s.endpoint === endpoint);
      if (!sub)
        subscriptions.push((sub = { protocol, endpoint, confirmed: false, arn: `${topicArn}:${next()}-0000-0000-0000-000000000000` }));
      // Without ReturnSubscriptionArn an e-mail subscription answers "pending confirmation" until confirmed.
      return ok(`<SubscriptionArn>${sub.confirmed ? escape(sub.arn) : 'pending confirmation'}</SubscriptionArn>`);
    }
  }
  return send(res, 400, xmlError('InvalidAction', `the fake does not know ${service} ${action}`));
}

function ssm({ state }: Fake, res: ServerResponse, target: string, input: Record<string, unknown>) {
  if (target === 'DescribeParameters') {
    const name = (input.ParameterFilters as { Values: string[] }[])[0]!.Values[0]!;
    const p = state.parameters[name];
    return sendJson(res, 200, { Parameters: p ? [{ Name: name, Type: p.type }] : [] });
  }
  if (target === 'PutParameter') {
    const { Name, Type, Value, Overwrite } = input as { Name: string; Type: string; Value: string; Overwrite?: boolean };
    if (state.parameters[Name] && !Overwrite) return jsonError(res, 'ParameterAlreadyExists', 'exists');
    state.parameters[Name] = { type: Type, value: Value };
    state.writes.push(`PutParameter ${Name} ${Type}${Overwrite ? ' overwrite' : ''}`);
    return sendJson(res, 200, { Version: 1, Tier: 'Standard' });
  }
  return jsonError(res, 'InvalidAction', `the fake does not know ssm ${target}`);
}

function acm({ state }: Fake, res: ServerResponse, target: string, input: Record<string, unknown>) {
  if (target === 'RequestCertificate') {
    const { DomainName, IdempotencyToken } = input as { DomainName: string; IdempotencyToken: string };
    const same = Object.entries(state.certificates).find(([, c]) => c.domain === DomainName && c.token === IdempotencyToken);
    if (same) return sendJson(res, 200, { CertificateArn: same[0] });
    const arn = `arn:aws:acm:us-east-1:${state.account}:certificate/${String(Object.keys(state.certificates).length).padStart(8, '0')}-aaaa-bbbb-cccc-000000000000`;
    state.certificates[arn] = { domain: DomainName, token: IdempotencyToken, status: 'PENDING_VALIDATION', createdAt: state.clock };
    state.writes.push(`RequestCertificate ${DomainName}`);
    return sendJson(res, 200, { CertificateArn: arn });
  }
  if (target === 'DescribeCertificate') {
    const arn = String(input.CertificateArn);
    const c = state.certificates[arn];
    if (!c) return jsonError(res, 'ResourceNotFoundException', `no certificate ${arn}`);
    // Issued once the validation record is published (the owner's DNS host, a test hook).
    const record = validation(c.domain);
    if (c.status === 'PENDING_VALIDATION' && state.dns[record.Name] === record.Value) c.status = 'ISSUED';
    return sendJson(res, 200, {
      Certificate: {
        CertificateArn: arn,
        DomainName: c.domain,
        Status: c.status,
        // JSON protocols carry timestamps as epoch seconds.
        ...(c.createdAt ? { CreatedAt: Date.parse(c.createdAt) / 1000 } : {}),
        DomainValidationOptions: [{ DomainName: c.domain, ResourceRecord: record }],
      },
    });
  }
  return jsonError(res, 'InvalidAction', `the fake does not know acm ${target}`);
}

/** Route 53 Domains (JSON 1.1, us-east-1 only): the domains registered in this account. */
function domains({ state, next }: Fake, res: ServerResponse, target: string, input: Record<string, unknown>) {
  const name = bare(String(input.DomainName ?? ''));
  const ns = state.registrations[name];
  // InvalidInput: "a domain name that doesn't belong to the account that submitted the request"
  // (Route 53 Domains API Reference, GetDomainDetail errors: https://docs.aws.amazon.com/Route53/latest/APIReference/API_domains_GetDomainDetail.html)
  if (!ns) return jsonError(res, 'InvalidInput', `Domain ${name} not found in account ${state.account}`);
  if (target === 'GetDomainDetail') return sendJson(res, 200, { DomainName: name, Nameservers: ns.map((Name) => ({ Name })) });
  if (target === 'UpdateDomainNameservers') {
    const servers = (input.Nameservers as { Name: string }[]).map((n) => bare(n.Name));
    state.registrations[name] = servers;
    state.writes.push(`UpdateDomainNameservers ${name} ${servers.join(',')}`);
    return sendJson(res, 200, { OperationId: `op-${next()}` });
  }
  return jsonError(res, 'InvalidAction', `the fake does not know route53domains ${target}`);
}

/** Route 53 (REST XML, /2013-04-01/...). */
function route53({ state, next }: Fake, res: ServerResponse, method: string, url: URL, body: string) {
  const ns = 'xmlns="https://route53.amazonaws.com/doc/2013-04-01/"';
  const fail = (status: number, code: string, message: string) =>
    send(
      res,
      status,
      `<?xml version="1.0"?><ErrorResponse ${ns}><Error><Type>Sender</Type><Code>${code}</Code><Message>${escape(message)}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`,
    );
  const zoneXml = (z: FakeZone) =>
    `<HostedZone><Id>/hostedzone/${z.id}</Id><Name>${z.name}.</Name><CallerReference>${escape(z.callerReference)}</CallerReference>` +
    `<Config><PrivateZone>${z.private}</PrivateZone></Config><ResourceRecordSetCount>${2 + Object.keys(z.records).length}</ResourceRecordSetCount></HostedZone>`;
  const delegationXml = (z: FakeZone) =>
    `<DelegationSet><NameServers>${z.nameServers.map((n) => `<NameServer>${n}</NameServer>`).join('')}</NameServers></DelegationSet>`;
  const change = () =>
    `<ChangeInfo><Id>/change/C${next()}</Id><Status>PENDING</Status><SubmittedAt>2026-01-01T00:00:00.000Z</SubmittedAt></ChangeInfo>`;
  const answer = (element: string, inner: string, status?: number, headers?: Record<string, string>) =>
    sendXml(res, ns, element, inner, status, headers);
  const path = url.pathname.replace(/^\/2013-04-01/, '');
  if (method === 'GET' && path === '/hostedzonesbyname') {
    const from = reversed(url.searchParams.get('dnsname') ?? '');
    const max = Number(url.searchParams.get('maxitems') ?? 100);
    const sorted = state.zones
      .filter((z) => reversed(z.name) >= from)
      .sort((a, b) => reversed(a.name).localeCompare(reversed(b.name)) || a.id.localeCompare(b.id));
    return answer(
      'ListHostedZonesByNameResponse',
      `<HostedZones>${sorted.slice(0, max).map(zoneXml).join('')}</HostedZones><DNSName>${escape(url.searchParams.get('dnsname') ?? '')}</DNSName>` +
        `<IsTruncated>${sorted.length > max}</IsTruncated><MaxItems>${max}</MaxItems>`,
    );
  }
  if (method === 'POST' && path === '/hostedzone') {
    const name = bare(tag(body, 'Name'));
    const callerReference = tag(body, 'CallerReference');
    // Like Route 53: a second zone of one name is allowed (only the caller reference must be new).
    if (state.zones.some((z) => z.callerReference === callerReference))
      return fail(409, 'HostedZoneAlreadyExists', `caller reference ${callerReference} was used`);
    const id = `Z${next()}FAKEZONE`;
    const n = state.zones.length;
    const zone: FakeZone = {
      id,
      name,
      private: tag(body, 'PrivateZone') === 'true',
      callerReference,
      nameServers: [`ns-${n}1.awsdns-${n}1.org`, `ns-${n}2.awsdns-${n}2.co.uk`, `ns-${n}3.awsdns-${n}3.com`, `ns-${n}4.awsdns-${n}4.net`],
      records: {},
    };
    state.zones.push(zone);
    state.writes.push(`CreateHostedZone ${name}`);
    return answer('CreateHostedZoneResponse', `${zoneXml(zone)}${change()}${delegationXml(zone)}`, 201, {
      location: `https://route53.amazonaws.com/2013-04-01/hostedzone/${id}`,
    });
  }
  const [, id, rest] = /^\/hostedzone\/([^/]+)(\/rrset\/?)?$/.exec(path) ?? [];
  if (id) {
    const zone = state.zones.find((z) => z.id === id);
    if (!zone) return fail(404, 'NoSuchHostedZone', `No hosted zone found with ID: ${id}`);
    if (method === 'GET' && !rest) return answer('GetHostedZoneResponse', `${zoneXml(zone)}${delegationXml(zone)}`);
    if (method === 'GET' && rest) {
      // In Route 53's order (name with its labels reversed, then type), from name= and type= on.
      const soa = `${zone.nameServers[0]}. awsdns-hostmaster.amazon.com. 1 7200 900 1209600 86400`;
      const all = [
        { name: zone.name, type: 'NS', values: zone.nameServers },
        { name: zone.name, type: 'SOA', values: [soa] },
        ...Object.entries(zone.records).map(([key, values]) => ({ name: key.split(' ')[0]!, type: key.split(' ')[1]!, values })),
      ].sort((a, b) => reversed(a.name).localeCompare(reversed(b.name)) || a.type.localeCompare(b.type));
      const [from, type] = [reversed(url.searchParams.get('name') ?? ''), url.searchParams.get('type') ?? ''];
      const max = Number(url.searchParams.get('maxitems') ?? 300);
      const after = all.filter(
        (r) => reversed(r.name).localeCompare(from) > 0 || (reversed(r.name) === from && r.type.localeCompare(type) >= 0),
      );
      const sets = after
        .slice(0, max)
        .map(
          (r) =>
            `<ResourceRecordSet><Name>${r.name}.</Name><Type>${r.type}</Type><TTL>300</TTL><ResourceRecords>` +
            `${r.values.map((v) => `<ResourceRecord><Value>${escape(v)}</Value></ResourceRecord>`).join('')}</ResourceRecords></ResourceRecordSet>`,
        );
      const more = after[max]
        ? `<NextRecordName>${after[max].name}.</NextRecordName><NextRecordType>${after[max].type}</NextRecordType>`
        : '';
      return answer(
        'ListResourceRecordSetsResponse',
        `<ResourceRecordSets>${sets.join('')}</ResourceRecordSets><IsTruncated>${Boolean(after[max])}</IsTruncated>${more}<MaxItems>${max}</MaxItems>`,
      );
    }
    if (method === 'POST' && rest) {
      for (const c of tags(body, 'Change')) {
        const [action, name, type] = [tag(c, 'Action'), bare(tag(c, 'Name')), tag(c, 'Type')];
        const values = tags(c, 'Value').map(unescape);
        if (action === 'DELETE') delete zone.records[`${name} ${type}`];
        else if (action === 'CREATE' && zone.records[`${name} ${type}`])
          return fail(400, 'InvalidChangeBatch', `${name} ${type} already exists`);
        else zone.records[`${name} ${type}`] = values;
        state.writes.push(`ChangeResourceRecordSets ${zone.name} ${action} ${name} ${type}`);
      }
      return answer('ChangeResourceRecordSetsResponse', change());
    }
  }
  return fail(400, 'InvalidInput', `the fake does not know route53 ${method} ${url.pathname}`);
}

function ses({ state, next }: Fake, res: ServerResponse, method: string, pathname: string, input: Record<string, unknown>, region: string) {
  if (method === 'GET' && pathname === '/v2/email/account') {
    const r = state.review;
    return restJson(res, 200, {
      ProductionAccessEnabled: state.production,
      SendingEnabled: true,
      SendQuota: { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 },
      ...(r
        ? { Details: { MailType: 'TRANSACTIONAL', WebsiteURL: r.websiteUrl, ReviewDetails: { Status: r.status, CaseId: r.caseId } } }
        : {}),
    });
  }
  if (method === 'POST' && pathname === '/v2/email/account/details') {
    // SES API Reference v2, PutAccountDetails: MailType and WebsiteURL required, ContactLanguage EN | JA;
    // ConflictException "if there is already an ongoing account details update under review":
    // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutAccountDetails.html
    if (!input.MailType || !input.WebsiteURL)
      return restJson(res, 400, { message: 'MailType and WebsiteURL are required' }, 'BadRequestException');
    if (input.ContactLanguage !== undefined && !['EN', 'JA'].includes(String(input.ContactLanguage))) {
      return restJson(res, 400, { message: `ContactLanguage ${String(input.ContactLanguage)}: EN or JA` }, 'BadRequestException');
    }
    if (state.review?.status === 'PENDING')
      return restJson(res, 409, { message: 'an account details update is under review' }, 'ConflictException');
    state.writes.push(`PutAccountDetails ${String(input.MailType)} ${String(input.WebsiteURL)}`);
    // The request opens a review; the account stays in the sandbox until AWS grants it (a hook here).
    state.review = { status: 'PENDING', caseId: `case-${next()}`, websiteUrl: String(input.WebsiteURL), request: input };
    return restJson(res, 200, {});
  }
  const identity = /^\/v2\/email\/identities\/([^/]+)$/.exec(pathname)?.[1];
  if (identity) {
    const id = decodeURIComponent(identity);
    const status = state.identities[id];
    if (!status) return restJson(res, 404, { message: 'Email identity does not exist.' }, 'NotFoundException');
    if (method === 'DELETE') {
      delete state.identities[id];
      delete state.dkim[id];
      delete state.identityTags[id];
      state.writes.push(`DeleteEmailIdentity ${id}`);
      return restJson(res, 200, {});
    }
    const dkim = state.dkim[id];
    return restJson(res, 200, {
      IdentityType: dkim ? 'DOMAIN' : 'EMAIL_ADDRESS',
      VerificationStatus: status,
      VerifiedForSendingStatus: status === 'SUCCESS',
      Tags: state.identityTags[id] ?? [],
      ...(dkim
        ? {
            DkimAttributes: {
              SigningEnabled: true,
              Status: dkim.status,
              Tokens: dkim.tokens,
              SigningAttributesOrigin: 'AWS_SES',
              SigningHostedZone: dkim.zone ?? 'dkim.amazonses.com',
              ...(dkim.keyAt ? { LastKeyGenerationTimestamp: Date.parse(dkim.keyAt) / 1000 } : {}),
            },
          }
        : {}),
    });
  }
  if (method === 'POST' && pathname === '/v2/email/identities') {
    const id = String(input.EmailIdentity);
    if (state.identities[id]) return restJson(res, 400, { message: 'exists' }, 'AlreadyExistsException');
    state.identities[id] = 'PENDING';
    state.identityTags[id] = Array.isArray(input.Tags) ? (input.Tags as { Key: string; Value: string }[]) : [];
    state.writes.push(`CreateEmailIdentity ${id}`);
    if (id.includes('@')) return restJson(res, 200, { IdentityType: 'EMAIL_ADDRESS', VerifiedForSendingStatus: false });
    const tokens = [1, 2, 3].map((i) => `${id.replace(/\W/g, '')}dkim${i}${next()}`);
    // A new key pair, so new tokens, each time a domain identity is created.
    state.dkim[id] = { tokens, status: 'PENDING', zone: signingZoneOf(region), keyAt: state.clock };
    return restJson(res, 200, {
      IdentityType: 'DOMAIN',
      VerifiedForSendingStatus: false,
      DkimAttributes: { SigningEnabled: true, Status: 'PENDING', Tokens: tokens, SigningHostedZone: signingZoneOf(region) },
    });
  }
  return restJson(res, 400, { message: `the fake does not know ses ${method} ${pathname}` }, 'BadRequestException');
}

/**
 * S3 (REST XML), path-style as the SDK and the AWS CLI address an IP endpoint: the three calls that empty
 * and delete a bucket (ListObjectVersions, DeleteObjects, DeleteBucket; NoSuchBucket is 404, BucketNotEmpty
 * 409: https://docs.aws.amazon.com/AmazonS3/latest/API/ErrorResponses.html#ErrorCodeList), and what the
 * preview workflow's `aws s3 cp` and `aws s3 rm --recursive` call: PutObject, ListObjectsV2, DeleteObject
 * (keys only: the fake keeps no content).
 */
function s3({ state }: Fake, res: ServerResponse, method: string, url: URL, body: string) {
  const ns = 'xmlns="http://s3.amazonaws.com/doc/2006-03-01/"';
  const { bucket, key } = s3Path(url);
  const fail = (status: number, code: string, message: string) =>
    send(
      res,
      status,
      `<?xml version="1.0"?><Error><Code>${code}</Code><Message>${escape(message)}</Message><BucketName>${escape(bucket)}</BucketName></Error>`,
    );
  const answer = (element: string, inner: string) => sendXml(res, ns, element, inner);
  const keys = state.buckets[bucket];
  if (!keys) return fail(404, 'NoSuchBucket', 'The specified bucket does not exist');
  if (method === 'GET' && url.searchParams.has('versions')) {
    const versions = keys.map((k) => `<Version><Key>${escape(k)}</Key><VersionId>null</VersionId><IsLatest>true</IsLatest></Version>`);
    return answer('ListVersionsResult', `<Name>${escape(bucket)}</Name><IsTruncated>false</IsTruncated>${versions.join('')}`);
  }
  if (method === 'POST' && url.searchParams.has('delete')) {
    const gone = tags(body, 'Key').map(unescape);
    state.buckets[bucket] = keys.filter((k) => !gone.includes(k));
    state.writes.push(`DeleteObjects ${bucket}`);
    return answer('DeleteResult', gone.map((k) => `<Deleted><Key>${escape(k)}</Key></Deleted>`).join(''));
  }
  if (method === 'PUT' && key) {
    if (!keys.includes(key)) keys.push(key);
    state.writes.push(`PutObject ${bucket}/${key}`);
    return send(res, 200, '', { etag: '"fake"' });
  }
  if (method === 'DELETE' && key) {
    state.buckets[bucket] = keys.filter((k) => k !== key);
    state.writes.push(`DeleteObject ${bucket}/${key}`);
    return void res.writeHead(204).end();
  }
  if (method === 'GET' && !key && url.searchParams.get('list-type') === '2') {
    const prefix = url.searchParams.get('prefix') ?? '';
    const encode = url.searchParams.get('encoding-type') === 'url' ? encodeURIComponent : (k: string) => k;
    const found = keys.filter((k) => k.startsWith(prefix)).sort();
    const contents = found.map(
      (k) =>
        `<Contents><Key>${escape(encode(k))}</Key><Size>1</Size><LastModified>${state.clock}</LastModified><ETag>"fake"</ETag><StorageClass>STANDARD</StorageClass></Contents>`,
    );
    return answer(
      'ListBucketResult',
      `<Name>${escape(bucket)}</Name><Prefix>${escape(encode(prefix))}</Prefix><KeyCount>${found.length}</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>${url.searchParams.get('encoding-type') === 'url' ? '<EncodingType>url</EncodingType>' : ''}${contents.join('')}`,
    );
  }
  if (method === 'DELETE' && !key) {
    if (keys.length > 0) return fail(409, 'BucketNotEmpty', 'The bucket you tried to delete is not empty');
    delete state.buckets[bucket];
    state.writes.push(`DeleteBucket ${bucket}`);
    return void res.writeHead(204).end();
  }
  return fail(400, 'InvalidRequest', `the fake does not know s3 ${method} ${url.pathname}${url.search}`);
}

/** AWS Budgets (JSON 1.1; the owner's tools sign for us-east-1, its one endpoint's region): what setup and doctor call. */
function budgets({ state }: Fake, res: ServerResponse, target: string, input: Record<string, unknown>, region: string) {
  if (region !== 'us-east-1') return jsonError(res, 'InvalidParameterException', `the tools call AWS Budgets in us-east-1, not ${region}`);
  if (input.AccountId !== state.account)
    return jsonError(res, 'AccessDeniedException', `not the caller's account: ${String(input.AccountId)}`);
  if (target === 'DescribeBudget') {
    const b = state.budgets[String(input.BudgetName)];
    if (!b) return jsonError(res, 'NotFoundException', `Unable to get budget: ${String(input.BudgetName)} - the budget doesn't exist.`);
    return sendJson(res, 200, {
      Budget: {
        BudgetName: input.BudgetName,
        BudgetType: 'COST',
        TimeUnit: 'MONTHLY',
        BudgetLimit: { Amount: b.limit, Unit: 'USD' },
        CalculatedSpend: { ActualSpend: { Amount: b.actual, Unit: 'USD' }, ForecastedSpend: { Amount: b.forecast, Unit: 'USD' } },
      },
    });
  }
  if (target === 'CreateBudget') {
    const budget = input.Budget as {
      BudgetName: string;
      BudgetLimit: { Amount: string; Unit: string };
      BudgetType: string;
      TimeUnit: string;
    };
    if (state.budgets[budget.BudgetName])
      return jsonError(res, 'DuplicateRecordException', `the budget ${budget.BudgetName} already exists`);
    if (budget.BudgetType !== 'COST' || budget.TimeUnit !== 'MONTHLY' || budget.BudgetLimit.Unit !== 'USD') {
      return jsonError(res, 'InvalidParameterException', 'the fake keeps monthly USD cost budgets only');
    }
    const alerts =
      (input.NotificationsWithSubscribers as { Notification: Record<string, unknown>; Subscribers: { Address: string }[] }[]) ?? [];
    state.budgets[budget.BudgetName] = {
      limit: budget.BudgetLimit.Amount,
      actual: '0.0',
      forecast: '0.0',
      alerts: alerts.map((a) => `${String(a.Notification.NotificationType)}>${String(a.Notification.Threshold)}%`),
      subscribers: [...new Set(alerts.flatMap((a) => a.Subscribers.map((s) => s.Address)))],
    };
    state.writes.push(`CreateBudget ${budget.BudgetName}`);
    return sendJson(res, 200, {});
  }
  return jsonError(res, 'InvalidAction', `the fake does not know budgets ${target}`);
}

/** API Gateway V2 (REST JSON): the $default stage's route settings the doctor reads. */
function apigateway({ state }: Fake, res: ServerResponse, method: string, url: URL) {
  const found = /^\/v2\/apis\/([^/]+)\/stages\/([^/]+)$/.exec(url.pathname);
  const api = found && state.apis[found[1]!];
  if (method !== 'GET' || !found || decodeURIComponent(found[2]!) !== '$default') {
    return restJson(res, 400, { message: `the fake does not know apigateway ${method} ${url.pathname}` }, 'BadRequestException');
  }
  if (!api) return restJson(res, 404, { message: 'Invalid API identifier specified' }, 'NotFoundException');
  // The wire names are lower camel case (the service model's jsonName), unlike the SDK's members.
  const routeSettings = Object.fromEntries(
    Object.entries(api.routeSettings).map(([key, t]) => [
      key,
      { throttlingRateLimit: t.ThrottlingRateLimit, throttlingBurstLimit: t.ThrottlingBurstLimit },
    ]),
  );
  return restJson(res, 200, { stageName: '$default', routeSettings });
}

/** The IAM action a request needs ("ses:CreateEmailIdentity"), to refuse it when it is in state.denied. */
function iamAction(service: string, method: string, url: URL, target: string, body: string): string {
  // Budgets' IAM actions are not its operations' names (Service Authorization Reference, AWS Budget Service).
  if (service === 'budgets') return target === 'CreateBudget' ? 'budgets:ModifyBudget' : 'budgets:ViewBudget';
  if (target) return `${service}:${target}`;
  const path = url.pathname;
  if (service === 'ses') {
    if (path === '/v2/email/account') return 'ses:GetAccount';
    if (path === '/v2/email/account/details') return 'ses:PutAccountDetails';
    if (path === '/v2/email/identities') return 'ses:CreateEmailIdentity';
    return `ses:${method === 'DELETE' ? 'Delete' : 'Get'}EmailIdentity`;
  }
  if (service === 'route53') {
    if (path.endsWith('/hostedzonesbyname')) return 'route53:ListHostedZonesByName';
    if (path.endsWith('/rrset') || path.endsWith('/rrset/'))
      return `route53:${method === 'POST' ? 'ChangeResourceRecordSets' : 'ListResourceRecordSets'}`;
    return `route53:${method === 'POST' ? 'CreateHostedZone' : 'GetHostedZone'}`;
  }
  if (service === 'apigateway') return `apigateway:${method}`;
  if (service === 's3') {
    // S3's IAM actions are not its operations' names (Amazon S3 User Guide, "Policy actions for Amazon S3":
    // ListObjectsV2 is s3:ListBucket, a PUT of an object s3:PutObject, its DELETE s3:DeleteObject).
    const { key } = s3Path(url);
    if (url.searchParams.has('versions')) return 's3:ListBucketVersions';
    if (method === 'GET' && !key) return 's3:ListBucket';
    if (method === 'PUT' && key) return 's3:PutObject';
    if (method === 'DELETE') return key ? 's3:DeleteObject' : 's3:DeleteBucket';
    return 's3:DeleteObjectVersion';
  }
  return `${service}:${new URLSearchParams(body).get('Action') ?? ''}`;
}

/** The role's policy on this request: S3 by the bucket's or object's ARN and its condition keys, anything else by "*". */
function roleAllows({ state }: Fake, policy: PolicyStatementJson[], service: string, action: string, url: URL): boolean {
  if (service !== 's3') return policyAllows(policy, action, '*');
  const { bucket, key } = s3Path(url);
  const context: Record<string, string> = { 'aws:ResourceAccount': bucket in state.buckets ? state.account : 'another-account' };
  if (url.searchParams.has('prefix')) context['s3:prefix'] = url.searchParams.get('prefix') ?? '';
  return policyAllows(policy, action, `arn:aws:s3:::${bucket}${key ? `/${key}` : ''}`, context);
}

/** AccessDenied as each protocol carries it (the SDK names the error by its code). */
function denied({ state }: Fake, res: ServerResponse, service: string, action: string) {
  const message = `User: arn:aws:iam::${state.account}:user/jane is not authorized to perform: ${action}`;
  if (service === 'ssm' || service === 'acm' || service === 'route53domains' || service === 'budgets')
    return jsonError(res, 'AccessDeniedException', message);
  if (service === 'ses' || service === 'apigateway') return restJson(res, 403, { message }, 'AccessDeniedException');
  if (service === 's3')
    return send(res, 403, `<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>`);
  return send(res, 403, xmlError('AccessDenied', escape(message)));
}

/** The test hooks: what people, registrars and AWS's own reviews and scans do while setup waits. */
function hooksOf(fake: Fake): Record<string, (p: URLSearchParams) => string | void> {
  const { state, next } = fake;
  return {
    click: (p) => void (state.identities[p.get('identity') ?? ''] = 'SUCCESS'),
    bootstrap: (p) => {
      state.toolkits[p.get('region') ?? ''] = Number(p.get('version'));
      state.toolkitPolicies[p.get('region') ?? ''] = p.get('policies') ?? '';
      state.toolkitBoundaries[p.get('region') ?? ''] = p.get('boundary') ?? '';
      delete state.toolkitStatus[p.get('region') ?? ''];
    },
    dns: (p) => void (state.dns[p.get('name') ?? ''] = p.get('value') ?? ''),
    account: (p) => void (state.account = p.get('id') ?? state.account),
    /** AWS answers the production access request: status=GRANTED, or DENIED (the case stays the same). */
    review: (p) => {
      if (!state.review) return 'no review was requested (PutAccountDetails)';
      const status = p.get('status');
      if (status !== 'GRANTED' && status !== 'DENIED') return 'status=GRANTED or status=DENIED';
      state.review.status = status;
      state.production = status === 'GRANTED';
    },
    /** The owner sets the name servers at the registrar: domain=, ns=a,b (default: its zone's here). */
    delegate: (p) => {
      const domain = bare(p.get('domain') ?? '');
      const ns = p.get('ns')?.split(',') ?? state.zones.find((z) => z.name === domain && !z.private)?.nameServers;
      if (!ns) return `no public zone ${domain} and no ns=`;
      state.registrar[domain] = ns.map(bare);
    },
    /** SES's DKIM scan: a domain identity is verified once its three CNAMEs answer in public DNS. */
    'dkim-scan': () => {
      for (const [domain, d] of Object.entries(state.dkim)) {
        if (d.status !== 'PENDING') continue;
        // SES looks for the CNAMEs pointing into its region's DKIM domain, nowhere else.
        const seen = d.tokens.every((t) =>
          published(fake, `${t}._domainkey.${domain}`, 'CNAME')
            .map(bare)
            .includes(`${t}.${d.zone ?? 'dkim.amazonses.com'}`),
        );
        if (seen) [d.status, state.identities[domain]] = ['SUCCESS', 'SUCCESS'];
      }
    },
    /** SES gives up after 72 h: a domain identity still PENDING (identity=, default every one) turns FAILED and stays so. */
    'dkim-fail': (p) => {
      const only = p.get('identity');
      if (only && !state.dkim[only]) return `no domain identity ${only}`;
      for (const [domain, d] of Object.entries(state.dkim)) {
        if ((only && domain !== only) || d.status !== 'PENDING') continue;
        [d.status, state.identities[domain]] = ['FAILED', 'FAILED'];
      }
    },
    /**
     * A deploy of the site stack: stack=, region=; its alarm topic (after other resources, so on a later
     * page), with the owner's e-mail (owner=) subscribed but not confirmed, after any confirmed others=a,b.
     */
    deploy: (p) => {
      const stack = p.get('stack') ?? 'Portfolio';
      const region = p.get('region') ?? 'us-east-1';
      const topic = `arn:aws:sns:${region}:${state.account}:${stack}-AlarmTopic${next()}`;
      const apiId = `api${next()}x`;
      // Each route at its own throttle (contract/limits.ts), as the stack's stage is after a deploy.
      state.apis[apiId] = {
        routeSettings: {
          'POST /api/contact': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
          'POST /api/events': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 50 },
          'POST /api/vitals': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 100 },
        },
      };
      state.stacks[stack] = {
        // No output names the API (its execute-api address is never printed): the owner's commands find it here.
        outputs: { DistributionDomainName: 'd111111abcdef8.cloudfront.net' },
        resources: [
          { logicalId: 'ApiHttpApi', type: 'AWS::ApiGatewayV2::Api', physicalId: apiId },
          { logicalId: 'SiteBucket', type: 'AWS::S3::Bucket', physicalId: `${stack.toLowerCase()}-sitebucket-${next()}` },
          { logicalId: 'CdnDistribution', type: 'AWS::CloudFront::Distribution', physicalId: `E${next()}FAKE` },
          { logicalId: 'ContactFunction', type: 'AWS::Lambda::Function', physicalId: `${stack}-Contact-${next()}` },
          { logicalId: 'MonitoringAlarmTopic', type: 'AWS::SNS::Topic', physicalId: topic },
        ],
      };
      const others = (p.get('others')?.split(',') ?? []).map((endpoint) => ({
        protocol: 'email',
        endpoint,
        confirmed: true,
        arn: `${topic}:${next()}-0000`,
      }));
      const owner = p.get('owner')
        ? [{ protocol: 'email', endpoint: p.get('owner')!, confirmed: false, arn: `${topic}:${next()}-0000` }]
        : [];
      state.topics[topic] = [...others, ...owner];
    },
    /** Billing updates a budget: name=, actual= and forecast= in US dollars. */
    'budget-spend': (p) => {
      const b = state.budgets[p.get('name') ?? ''];
      if (!b) return `no budget ${p.get('name')}`;
      b.actual = p.get('actual') ?? b.actual;
      b.forecast = p.get('forecast') ?? b.forecast;
    },
    /** The breaker function sets a route's throttle on every deployed API: routeKey=, rate=, burst=. */
    'route-throttle': (p) => {
      const key = p.get('routeKey') ?? '';
      for (const api of Object.values(state.apis)) {
        if (!api.routeSettings[key]) return `no route ${key}`;
        api.routeSettings[key] = { ThrottlingRateLimit: Number(p.get('rate')), ThrottlingBurstLimit: Number(p.get('burst')) };
      }
    },
    /** The owner clicks "Confirm subscription" in the mail SNS sent to endpoint=. */
    'sns-confirm': (p) => {
      const subs = Object.values(state.topics)
        .flat()
        .filter((s) => s.endpoint === p.get('endpoint'));
      if (subs.length === 0) return `no subscription for ${p.get('endpoint')}`;
      for (const s of subs) s.confirmed = true;
    },
    /** 48 h pass: SNS deletes every subscription nobody confirmed. */
    'sns-expire': () => {
      for (const [arn, subs] of Object.entries(state.topics)) state.topics[arn] = subs.filter((s) => s.confirmed);
    },
  };
}

export async function startFakeAws(initial: Partial<FakeAwsState> = {}): Promise<FakeAws> {
  const state: FakeAwsState = {
    account: '123456789012',
    identities: {},
    identityTags: {},
    dkim: {},
    production: false,
    toolkits: {},
    toolkitStatus: {},
    toolkitPolicies: {},
    toolkitBoundaries: {},
    policies: {},
    parameters: {},
    certificates: {},
    dns: {},
    zones: [],
    registrations: {},
    registrar: {},
    stacks: {},
    topics: {},
    buckets: {},
    budgets: {},
    apis: {},
    denied: [],
    clock: '2026-01-01T00:00:00Z',
    writes: [],
    ...initial,
  };
  let serial = 0;
  const fake: Fake = { state, next: () => String(++serial).padStart(4, '0') };
  const hooks = hooksOf(fake);

  const server = createServer((req, res) => {
    void (async () => {
      const body = await getRawBody(req, 'utf8');
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname.startsWith('/__')) {
        if (url.pathname === '/__state') return sendJson(res, 200, state);
        const hook = hooks[url.pathname.replace(/^\/__hooks\//, '')];
        if (!hook) return sendJson(res, 404, { message: 'no such hook' });
        const problem = hook(url.searchParams);
        return problem ? sendJson(res, 400, { message: problem }) : sendJson(res, 200, state);
      }
      // "Credential=KEY/DATE/REGION/SERVICE/aws4_request"
      const scope = /Credential=[^/]+\/\d+\/([^/]+)\/([^/]+)\//.exec(req.headers.authorization ?? '');
      const [region, service] = [scope?.[1] ?? '', scope?.[2] ?? ''];
      const target =
        String(req.headers['x-amz-target'] ?? '')
          .split('.')
          .pop() ?? '';
      const json = () => JSON.parse(body || '{}') as Record<string, unknown>;
      const action = iamAction(service, req.method ?? 'GET', url, target, body);
      if (state.denied.includes(action)) return denied(fake, res, service, action);
      if (state.policy && !roleAllows(fake, state.policy, service, action, url)) return denied(fake, res, service, action);
      if (service === 's3') return s3(fake, res, req.method ?? 'GET', url, body);
      if (service === 'ssm') return ssm(fake, res, target, json());
      if (service === 'acm') return acm(fake, res, target, json());
      if (service === 'route53domains') return domains(fake, res, target, json());
      if (service === 'budgets') return budgets(fake, res, target, json(), region);
      if (service === 'apigateway') return apigateway(fake, res, req.method ?? 'GET', url);
      if (service === 'route53') return route53(fake, res, req.method ?? 'GET', url, body);
      if (service === 'ses') return ses(fake, res, req.method ?? 'GET', url.pathname, json(), region);
      return query(fake, res, service, region, new URLSearchParams(body));
    })().catch((error: unknown) => send(res, 500, String(error)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  const dns = createSocket('udp4');
  dns.on('message', (message, peer) => {
    try {
      dns.send(
        dnsAnswer(message, (name) => delegation(state, name)),
        peer.port,
        peer.address,
      );
    } catch {
      // Not a query this fake understands: no answer, as a server drops garbage.
    }
  });
  dns.bind(0, '127.0.0.1');
  await once(dns, 'listening');

  return {
    url: `http://127.0.0.1:${port}`,
    dns: `127.0.0.1:${dns.address().port}`,
    state,
    stop: async () => {
      await new Promise<void>((resolve) => dns.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
