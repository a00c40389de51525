/**
 * A small stateful AWS on 127.0.0.1 for the setup and doctor tests that spawn the real commands: STS and
 * CloudFormation (query protocol, XML), SSM and ACM (JSON 1.1) and SESv2 (REST JSON), routed by the
 * service in the request's signature scope; point the SDK at it with AWS_ENDPOINT_URL and dummy keys.
 * Test hooks (POST /__hooks/...) stand in for the people and services setup waits on; GET /__state
 * shows the account.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeAwsState {
  account: string;
  identities: Record<string, 'PENDING' | 'SUCCESS' | 'FAILED'>;
  production: boolean;
  /** Region → CDKToolkit bootstrap version. */
  toolkits: Record<string, number>;
  parameters: Record<string, { type: string; value: string }>;
  /** ACM (us-east-1): ARN → the certificate; ISSUED once the test publishes the validation record. */
  certificates: Record<string, { domain: string; token: string; status: 'PENDING_VALIDATION' | 'ISSUED' }>;
  /** What the owner published at their DNS host (hook): name → value. */
  dns: Record<string, string>;
  /** Every write, in order. */
  writes: string[];
}

export interface FakeAws {
  url: string;
  state: FakeAwsState;
  stop(): Promise<void>;
}

const xml = (action: string, result: string) =>
  `<${action}Response xmlns="https://aws.amazon.com/doc/"><${action}Result>${result}</${action}Result>` +
  `<ResponseMetadata><RequestId>fake</RequestId></ResponseMetadata></${action}Response>`;
const xmlError = (code: string, message: string) =>
  `<ErrorResponse><Error><Type>Sender</Type><Code>${code}</Code><Message>${message}</Message></Error><RequestId>fake</RequestId></ErrorResponse>`;
const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function send(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'text/xml', ...headers });
  res.end(body);
}
const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) =>
  send(res, status, JSON.stringify(body), { 'content-type': 'application/x-amz-json-1.1', ...headers });

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function startFakeAws(initial: Partial<FakeAwsState> = {}): Promise<FakeAws> {
  const state: FakeAwsState = { account: '123456789012', identities: {}, production: false, toolkits: {}, parameters: {}, certificates: {}, dns: {}, writes: [], ...initial };
  const validation = (domain: string) => ({ Name: `_v.${domain}.`, Type: 'CNAME', Value: `_v-${domain.replace(/\./g, '-')}.acm-validations.aws.` });

  const query = (res: ServerResponse, service: string, region: string, form: URLSearchParams) => {
    const action = form.get('Action') ?? '';
    if (service === 'sts' && action === 'GetCallerIdentity') {
      return send(res, 200, xml(action, `<Arn>arn:aws:iam::${state.account}:user/jane</Arn><UserId>AIDAFAKE</UserId><Account>${state.account}</Account>`));
    }
    if (service === 'cloudformation' && action === 'DescribeStacks') {
      const name = form.get('StackName') ?? '';
      const version = name === 'CDKToolkit' ? state.toolkits[region] : undefined;
      if (version === undefined) return send(res, 400, xmlError('ValidationError', `Stack with id ${escape(name)} does not exist`));
      return send(
        res,
        200,
        xml(
          action,
          `<Stacks><member><StackName>CDKToolkit</StackName><StackStatus>CREATE_COMPLETE</StackStatus><CreationTime>2026-01-01T00:00:00Z</CreationTime>` +
            `<Outputs><member><OutputKey>BootstrapVersion</OutputKey><OutputValue>${version}</OutputValue></member></Outputs></member></Stacks>`,
        ),
      );
    }
    if (service === 'cloudformation' && action === 'ListStackResources') {
      return send(res, 400, xmlError('ValidationError', `Stack with id ${escape(form.get('StackName') ?? '')} does not exist`));
    }
    return send(res, 400, xmlError('InvalidAction', `the fake does not know ${service} ${action}`));
  };

  const ssm = (res: ServerResponse, target: string, input: Record<string, unknown>) => {
    if (target === 'DescribeParameters') {
      const name = (input.ParameterFilters as { Values: string[] }[])[0]!.Values[0]!;
      const p = state.parameters[name];
      return sendJson(res, 200, { Parameters: p ? [{ Name: name, Type: p.type }] : [] });
    }
    if (target === 'PutParameter') {
      const { Name, Type, Value, Overwrite } = input as { Name: string; Type: string; Value: string; Overwrite?: boolean };
      if (state.parameters[Name] && !Overwrite) return sendJson(res, 400, { __type: 'ParameterAlreadyExists', message: 'exists' });
      state.parameters[Name] = { type: Type, value: Value };
      state.writes.push(`PutParameter ${Name} ${Type}`);
      return sendJson(res, 200, { Version: 1, Tier: 'Standard' });
    }
    return sendJson(res, 400, { __type: 'InvalidAction', message: `the fake does not know ssm ${target}` });
  };

  const acm = (res: ServerResponse, target: string, input: Record<string, unknown>) => {
    if (target === 'RequestCertificate') {
      const { DomainName, IdempotencyToken } = input as { DomainName: string; IdempotencyToken: string };
      const same = Object.entries(state.certificates).find(([, c]) => c.domain === DomainName && c.token === IdempotencyToken);
      if (same) return sendJson(res, 200, { CertificateArn: same[0] });
      const arn = `arn:aws:acm:us-east-1:${state.account}:certificate/${String(Object.keys(state.certificates).length).padStart(8, '0')}-aaaa-bbbb-cccc-000000000000`;
      state.certificates[arn] = { domain: DomainName, token: IdempotencyToken, status: 'PENDING_VALIDATION' };
      state.writes.push(`RequestCertificate ${DomainName}`);
      return sendJson(res, 200, { CertificateArn: arn });
    }
    if (target === 'DescribeCertificate') {
      const arn = String(input.CertificateArn);
      const c = state.certificates[arn];
      if (!c) return sendJson(res, 400, { __type: 'ResourceNotFoundException', message: `no certificate ${arn}` });
      // Issued once the validation record is published (the owner's DNS host, a test hook).
      const record = validation(c.domain);
      if (state.dns[record.Name] === record.Value) c.status = 'ISSUED';
      return sendJson(res, 200, {
        Certificate: { CertificateArn: arn, DomainName: c.domain, Status: c.status, DomainValidationOptions: [{ DomainName: c.domain, ResourceRecord: record }] },
      });
    }
    return sendJson(res, 400, { __type: 'InvalidAction', message: `the fake does not know acm ${target}` });
  };

  const ses = (res: ServerResponse, method: string, pathname: string, input: Record<string, unknown>) => {
    const json = (status: number, body: unknown, type?: string) =>
      send(res, status, JSON.stringify(body), { 'content-type': 'application/json', ...(type ? { 'x-amzn-errortype': type } : {}) });
    if (method === 'GET' && pathname === '/v2/email/account') {
      return json(200, { ProductionAccessEnabled: state.production, SendingEnabled: true, SendQuota: { Max24HourSend: 200, MaxSendRate: 1, SentLast24Hours: 0 } });
    }
    const identity = /^\/v2\/email\/identities\/([^/]+)$/.exec(pathname)?.[1];
    if (method === 'GET' && identity) {
      const id = decodeURIComponent(identity);
      const status = state.identities[id];
      if (!status) return json(404, { message: 'Email identity does not exist.' }, 'NotFoundException');
      return json(200, { IdentityType: id.includes('@') ? 'EMAIL_ADDRESS' : 'DOMAIN', VerificationStatus: status, VerifiedForSendingStatus: status === 'SUCCESS' });
    }
    if (method === 'POST' && pathname === '/v2/email/identities') {
      const id = String(input.EmailIdentity);
      if (state.identities[id]) return json(400, { message: 'exists' }, 'AlreadyExistsException');
      state.identities[id] = 'PENDING';
      state.writes.push(`CreateEmailIdentity ${id}`);
      return json(200, { IdentityType: 'EMAIL_ADDRESS', VerifiedForSendingStatus: false });
    }
    return json(400, { message: `the fake does not know ses ${method} ${pathname}` }, 'BadRequestException');
  };

  const server = createServer((req, res) => {
    void (async () => {
      const body = await bodyOf(req);
      const url = new URL(req.url ?? '/', 'http://fake');
      if (url.pathname.startsWith('/__')) {
        if (url.pathname === '/__state') return sendJson(res, 200, state);
        if (url.pathname === '/__hooks/click') state.identities[url.searchParams.get('identity') ?? ''] = 'SUCCESS';
        else if (url.pathname === '/__hooks/bootstrap') state.toolkits[url.searchParams.get('region') ?? ''] = Number(url.searchParams.get('version'));
        else if (url.pathname === '/__hooks/dns') state.dns[url.searchParams.get('name') ?? ''] = url.searchParams.get('value') ?? '';
        else if (url.pathname === '/__hooks/account') state.account = url.searchParams.get('id') ?? state.account;
        else return sendJson(res, 404, { message: 'no such hook' });
        return sendJson(res, 200, state);
      }
      // "Credential=KEY/DATE/REGION/SERVICE/aws4_request"
      const scope = /Credential=[^/]+\/\d+\/([^/]+)\/([^/]+)\//.exec(req.headers.authorization ?? '');
      const [region, service] = [scope?.[1] ?? '', scope?.[2] ?? ''];
      const target = String(req.headers['x-amz-target'] ?? '');
      if (service === 'ssm') return ssm(res, target.split('.').pop() ?? '', JSON.parse(body || '{}') as Record<string, unknown>);
      if (service === 'acm') return acm(res, target.split('.').pop() ?? '', JSON.parse(body || '{}') as Record<string, unknown>);
      if (service === 'ses') return ses(res, req.method ?? 'GET', url.pathname, body ? (JSON.parse(body) as Record<string, unknown>) : {});
      return query(res, service, region, new URLSearchParams(body));
    })().catch((error: unknown) => send(res, 500, String(error)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    state,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
