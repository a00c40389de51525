/**
 * The production wiring, end to end in one process: the handler built from environment
 * variables, the real AWS SDK SES client talking SES v1's query protocol to a stand-in SES on
 * 127.0.0.1 (as aws-ses-v2-local does locally), Node's fetch talking to a stand-in siteverify,
 * and the real Powertools Logger and Metrics writing to stdout.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';
import { CONTACT_MESSAGES } from '../../contract/contact-rules';
import { lambdaContext } from '../shared/test-support';
import { bodyOf, contactEvent, VALID_BODY } from './fixtures';
import { createContactHandlerFromEnv } from './clients';

interface SesRequest {
  form: URLSearchParams;
  authorization: string | undefined;
}

const sesRequests: SesRequest[] = [];
let sesReply: { status: number; body: string } = { status: 200, body: '' };
const okReply = () => ({
  status: 200,
  body: `<SendEmailResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><SendEmailResult><MessageId>m-${sesRequests.length}</MessageId></SendEmailResult><ResponseMetadata><RequestId>r-1</RequestId></ResponseMetadata></SendEmailResponse>`,
});
const errorReply = (status: number, code: string) => ({
  status,
  body: `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>Sender</Type><Code>${code}</Code><Message>Email address is not verified: ${VALID_BODY.email}</Message></Error><RequestId>r-2</RequestId></ErrorResponse>`,
});

let verifySuccess = true;
let ses: Server;
let verifier: Server;
let env: NodeJS.ProcessEnv;

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
}

function collect(req: NodeJS.ReadableStream): Promise<string> {
  return new Promise((resolve) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
    req.on('end', () => resolve(raw));
  });
}

beforeAll(async () => {
  ses = createServer(async (req, res) => {
    const form = new URLSearchParams(await collect(req));
    sesRequests.push({ form, authorization: req.headers.authorization });
    res.writeHead(sesReply.status, { 'content-type': 'text/xml' }).end(sesReply.body);
  });
  verifier = createServer(async (req, res) => {
    const form = new URLSearchParams(await collect(req));
    const ok = verifySuccess && form.get('secret') === 'local-test-secret';
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ success: ok }));
  });
  const [sesUrl, verifyUrl] = await Promise.all([listen(ses), listen(verifier)]);
  env = {
    OWNER_EMAIL: 'owner@example.com',
    SENDER_EMAIL: 'site@example.com',
    RECAPTCHA_SECRET: 'local-test-secret',
    RECAPTCHA_VERIFY_URL: `${verifyUrl}/siteverify`,
    SES_ENDPOINT: sesUrl,
  };
});

afterAll(async () => {
  ses.closeAllConnections();
  verifier.closeAllConnections();
  await Promise.all([new Promise((r) => ses.close(r)), new Promise((r) => verifier.close(r))]);
});

/** Everything written to stdout and stderr (Powertools logs errors to stderr). */
let stdout: string[] = [];
function captureStdout(): void {
  stdout = [];
  const record = (chunk: string | Uint8Array): boolean => {
    stdout.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  };
  vi.spyOn(process.stdout, 'write').mockImplementation(record);
  vi.spyOn(process.stderr, 'write').mockImplementation(record);
}
function jsonLines(): Record<string, unknown>[] {
  return stdout
    .join('')
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

afterEach(() => {
  vi.restoreAllMocks();
  sesRequests.length = 0;
  verifySuccess = true;
});

describe('contact handler built from the environment', () => {
  it('verifies, then sends one SES SendEmail with dummy local credentials, and says 200', async () => {
    sesReply = okReply();
    captureStdout();
    const handler = createContactHandlerFromEnv(env);
    const result = await handler(contactEvent(VALID_BODY), lambdaContext());
    vi.restoreAllMocks();

    expect(result.statusCode).toBe(200);
    expect(bodyOf(result)).toEqual({ ok: true });
    expect(sesRequests).toHaveLength(1);
    const { form, authorization } = sesRequests[0]!;
    expect(form.get('Action')).toBe('SendEmail');
    expect(form.get('Source')).toBe('site@example.com');
    expect(form.get('Destination.ToAddresses.member.1')).toBe('owner@example.com');
    expect(form.has('Destination.ToAddresses.member.2')).toBe(false);
    expect(form.has('Destination.CcAddresses.member.1')).toBe(false);
    expect(form.has('Destination.BccAddresses.member.1')).toBe(false);
    expect(form.get('ReplyToAddresses.member.1')).toBe(VALID_BODY.email);
    expect(form.get('Message.Subject.Data')).toBe('Portfolio contact from José Álvarez');
    expect(form.get('Message.Body.Text.Data')).toContain(VALID_BODY.message);
    expect(form.get('Message.Body.Html.Data')).toContain('Hello &lt;b&gt;there&lt;/b&gt;');
    expect(authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/us-east-1\/ses\/aws4_request/);

    // Powertools output: one JSON log line with the request ids, and one EMF metric.
    const lines = jsonLines();
    const log = lines.find((line) => line.message === 'Contact request handled');
    expect(log).toMatchObject({ level: 'INFO', outcome: 'sent', statusCode: 200, requestId: 'api-request-1' });
    const emf = lines.find((line) => '_aws' in line);
    expect(emf).toMatchObject({
      _aws: {
        CloudWatchMetrics: [
          { Namespace: 'Portfolio', Dimensions: [['service']], Metrics: [{ Name: 'ContactMessageSent', Unit: 'Count' }] },
        ],
      },
      service: 'contact',
      ContactMessageSent: 1,
    });
    const everything = stdout.join('');
    for (const secret of [VALID_BODY.email, VALID_BODY.fullName, 'Hello', VALID_BODY['g-recaptcha-response']]) {
      expect(everything).not.toContain(secret);
    }
  });

  it.each([
    [400, 'MessageRejected', 502],
    [500, 'InternalFailure', 502],
    [400, 'Throttling', 503],
  ])('makes exactly one SES attempt, never a retry, when SES answers %s %s → %s', async (status, code, expected) => {
    sesReply = errorReply(status, code);
    captureStdout();
    const result = await createContactHandlerFromEnv(env)(contactEvent(VALID_BODY), lambdaContext());
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(expected);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
    expect(sesRequests).toHaveLength(1);
    const failure = jsonLines().find((line) => line.level === 'ERROR');
    expect(failure).toMatchObject({ outcome: 'ses-failed', errorName: code, httpStatusCode: status });
    expect(stdout.join('')).not.toContain(VALID_BODY.email);
  });

  it('answers 403 and contacts no SES when the verifier refuses the token', async () => {
    verifySuccess = false;
    captureStdout();
    const result = await createContactHandlerFromEnv(env)(contactEvent(VALID_BODY), lambdaContext());
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(403);
    expect(sesRequests).toHaveLength(0);
  });

  it('answers 502 with no mail when the SES emulator is down', async () => {
    const down = createServer();
    const url = await listen(down);
    await new Promise((r) => down.close(r));
    captureStdout();
    const result = await createContactHandlerFromEnv({ ...env, SES_ENDPOINT: url })(contactEvent(VALID_BODY), lambdaContext());
    vi.restoreAllMocks();
    expect(result.statusCode).toBe(502);
    expect(bodyOf(result)).toEqual({ error: CONTACT_MESSAGES.sendFailed });
  });

  it('in Lambda mode reads the secret from SSM once per cold start, decrypted, and never from the environment', async () => {
    sesReply = okReply();
    const reads: { Name?: string; WithDecryption?: boolean }[] = [];
    let fail = true;
    const ssm = {
      send: (command: { input: { Name?: string; WithDecryption?: boolean } }) => {
        reads.push(command.input);
        if (fail) {
          fail = false;
          return Promise.reject(Object.assign(new Error('throttled'), { name: 'ThrottlingException' }));
        }
        return Promise.resolve({ Parameter: { Value: 'local-test-secret' } });
      },
    };
    const lambdaEnv = {
      ...env,
      RECAPTCHA_SECRET: 'a-secret-that-must-be-ignored',
      RECAPTCHA_SECRET_PARAMETER: '/portfolio/recaptcha-secret',
      AWS_LAMBDA_FUNCTION_NAME: 'contact',
      ORIGIN_SECRET_ARN: 'arn:aws:secretsmanager:us-east-1:111111111111:secret:origin',
    };
    const origin = 'o'.repeat(48);
    const secretsManager = { send: () => Promise.resolve({ SecretString: origin }) };
    captureStdout();
    const handler = createContactHandlerFromEnv(lambdaEnv, { ssm, secretsManager });
    const viaCloudFront = () =>
      contactEvent(VALID_BODY, { headers: { 'content-type': 'application/json', [ORIGIN_VERIFY_HEADER]: origin } });
    // In Lambda the origin check is always on: a request without CloudFront's value is refused first.
    expect((await handler(contactEvent(VALID_BODY), lambdaContext())).statusCode).toBe(403);
    const first = await handler(viaCloudFront(), lambdaContext());
    const second = await handler(viaCloudFront(), lambdaContext());
    const third = await handler(viaCloudFront(), lambdaContext());
    vi.restoreAllMocks();
    // The first read fails (503, not cached); the second succeeds and serves every later request.
    expect([first.statusCode, second.statusCode, third.statusCode]).toEqual([503, 200, 200]);
    expect(reads).toEqual([
      { Name: '/portfolio/recaptcha-secret', WithDecryption: true },
      { Name: '/portfolio/recaptcha-secret', WithDecryption: true },
    ]);
    expect(sesRequests).toHaveLength(2);
    expect(stdout.join('')).not.toContain('local-test-secret');
  });

  it('logs a missing configuration once, names the variables, and answers 503 to valid input', async () => {
    captureStdout();
    const handler = createContactHandlerFromEnv({ SES_ENDPOINT: env.SES_ENDPOINT });
    const first = await handler(contactEvent(VALID_BODY), lambdaContext());
    const second = await handler(contactEvent('nope'), lambdaContext());
    await handler(contactEvent(VALID_BODY), lambdaContext());
    vi.restoreAllMocks();
    expect(first.statusCode).toBe(503);
    expect(second.statusCode).toBe(400);
    const configErrors = jsonLines().filter((line) => String(line.message).includes('misconfigured'));
    expect(configErrors).toHaveLength(1);
    expect(configErrors[0]!.problems).toEqual([
      'OWNER_EMAIL is not set',
      'SENDER_EMAIL is not set',
      'RECAPTCHA_SECRET_PARAMETER is not set (the local stack may set RECAPTCHA_SECRET instead)',
    ]);
    expect(sesRequests).toHaveLength(0);
  });
});
