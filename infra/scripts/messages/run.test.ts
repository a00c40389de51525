/**
 * `npm run messages` against the deployed archive, with CloudFormation and DynamoDB faked at their
 * boundary (aws-sdk-client-mock): what the owner sees, what is written, and each problem as one line.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { ConditionalCheckFailedException, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, DynamoDBDocumentClient, GetCommand, QueryCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../config/portfolio-config';
import { UsageError } from '../kit/command';
import { parseMessagesArgs, runMessages, type MessagesDeps } from './run';
import { scratchDir } from '../../../tools/scratch';

const TABLE = 'Portfolio-ArchiveMessages00E7DFE0-1ABCDEF';
const config = parseConfig({
  stackName: 'Portfolio',
  region: 'eu-west-1',
  ownerEmail: 'me@owner-mail.dev',
  senderEmail: 'portfolio@jane.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: 'a-real-looking-site-key-0123456789',
});

const cfn = mockAwsClient(CloudFormationClient);
const ddb = mockAwsClient(DynamoDBDocumentClient);

function awsError(name: string, message: string): Error {
  return Object.assign(new Error(message), { name, $metadata: {} });
}
const stackWith = (outputs: Record<string, string>) => ({
  Stacks: [
    {
      StackName: 'Portfolio',
      CreationTime: new Date(),
      StackStatus: 'UPDATE_COMPLETE' as const,
      Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
    },
  ],
});

const OLD = {
  id: '11111111-1111-4111-8111-111111111111',
  receivedAt: '2026-11-20T08:00:00.000Z',
  name: 'Ada Lovelace',
  email: 'ada@example.org',
  message: 'Hello!\nSecond line',
  status: 'delivered',
  attempts: 1,
  sesMessageId: '0100019abc-000000',
  expiresAt: 1_795_000_000,
};
const NEW = {
  id: '22222222-2222-4222-8222-222222222222',
  receivedAt: '2026-11-25T19:45:12.345Z',
  name: 'Grace Hopper',
  email: 'grace@example.org',
  message: '\n  I would like to hire you for a project that needs far more than sixty characters to describe.',
  status: 'failed',
  attempts: 3,
  language: 'es',
  lastError: 'MessageRejected: Email address is not verified.',
  expiresAt: 1_795_500_000,
  claimedUntil: 1_764_100_000_000,
  idempotencyHash: 'abc',
};

interface Run {
  code: number;
  out: string;
  err: string;
}
async function run(argv: string[], deps: MessagesDeps = {}): Promise<Run> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runMessages(argv, {
    config,
    env: {},
    stdout: (text) => out.push(text),
    stderr: (text) => err.push(text),
    cloudFormation: (region) => new CloudFormationClient({ region }),
    dynamoDb: (options) => new DynamoDBClient({ ...options, credentials: { accessKeyId: 'x', secretAccessKey: 'y' } }),
    ...deps,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

beforeEach(() => {
  cfn.reset();
  ddb.reset();
  cfn
    .on(DescribeStacksCommand, { StackName: 'Portfolio' })
    .resolves(stackWith({ SiteUrl: 'https://d1.cloudfront.net', ArchiveTableName: TABLE }));
});

describe('list', () => {
  it('reads the table named by the stack output, every page, newest first', async () => {
    ddb.on(ScanCommand, { TableName: TABLE, ExclusiveStartKey: undefined }).resolves({ Items: [OLD], LastEvaluatedKey: { id: OLD.id } });
    ddb.on(ScanCommand, { TableName: TABLE, ExclusiveStartKey: { id: OLD.id } }).resolves({ Items: [NEW] });
    const { code, out, err } = await run([]);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.split('\n');
    expect(lines[0]).toBe(
      `2 messages in the archive of stack Portfolio (eu-west-1, table ${TABLE}), newest first (\`npm run messages -- show ID\` prints one in full):`,
    );
    expect(lines[1]).toMatch(/^WHEN\s+STATUS\s+NAME\s+EMAIL\s+MESSAGE\s+ID$/);
    expect(lines[2]).toMatch(
      /^2026-11-25 19:45 UTC\s+failed\s+Grace Hopper\s+grace@example\.org\s+I would like to hire you for a project that needs far more …\s+22222222-/,
    );
    expect(lines[3]).toMatch(/^2026-11-20 08:00 UTC\s+delivered\s+Ada Lovelace\s+ada@example\.org\s+Hello!\s+11111111-/);
    expect(lines).toHaveLength(4);
    expect(ddb.commandCalls(ScanCommand)).toHaveLength(2);
  });

  it('--json prints one array: ISO times, the expiry from epoch seconds, optional fields only when present, no internals', async () => {
    ddb.on(ScanCommand).resolves({ Items: [OLD, NEW] });
    const { code, out } = await run(['--json']);
    expect(code).toBe(0);
    const parsed = JSON.parse(out) as Record<string, unknown>[];
    expect(parsed).toEqual([
      {
        id: NEW.id,
        receivedAt: NEW.receivedAt,
        name: NEW.name,
        email: NEW.email,
        message: NEW.message,
        status: 'failed',
        attempts: 3,
        expiresAt: new Date(NEW.expiresAt * 1000).toISOString(),
        language: 'es',
        lastError: NEW.lastError,
      },
      {
        id: OLD.id,
        receivedAt: OLD.receivedAt,
        name: OLD.name,
        email: OLD.email,
        message: OLD.message,
        status: 'delivered',
        attempts: 1,
        expiresAt: '2026-11-18T11:06:40.000Z',
        sesMessageId: OLD.sesMessageId,
      },
    ]);
  });

  it('says so when the archive is empty, and --json gives []', async () => {
    ddb.on(ScanCommand).resolves({ Items: [] });
    expect((await run([])).out).toBe(`No messages in the archive of stack Portfolio (eu-west-1, table ${TABLE}).`);
    expect(JSON.parse((await run(['list', '--json'])).out)).toEqual([]);
  });

  it("never prints a visitor's control characters to the terminal", async () => {
    ddb.on(ScanCommand).resolves({ Items: [{ ...OLD, name: 'Eve\x1b]0;owned\x07', message: 'hi\x1b[2Jthere' }] });
    const { out } = await run([]);
    // eslint-disable-next-line no-control-regex -- the control characters are what must be absent
    expect(out).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f]/);
    expect(out).toContain('Eve\uFFFD]0;owned ');
  });
});

describe('show, resend, delete', () => {
  it('show prints one message in full, lines kept', async () => {
    ddb.on(GetCommand, { TableName: TABLE, Key: { id: NEW.id } }).resolves({ Item: NEW });
    const { code, out } = await run(['show', NEW.id]);
    expect(code).toBe(0);
    expect(out).toContain(`id          ${NEW.id}\nreceived    2026-11-25 19:45 UTC\nstatus      failed\nattempts    3\n`);
    expect(out).toContain('last error  MessageRejected: Email address is not verified.');
    expect(out).toContain('language    es');
    expect(out).toContain('expires     2026-11-24 06:00 UTC');
    expect(out).not.toMatch(/claimedUntil|idempotencyHash|SES message id/);
    expect(
      out.endsWith('message:\n  \n    I would like to hire you for a project that needs far more than sixty characters to describe.'),
    ).toBe(true);
    expect(JSON.parse((await run(['show', NEW.id, '--json'])).out).id).toBe(NEW.id);
  });

  it('an unknown id is one line and exit 1, for show, resend and delete', async () => {
    ddb.on(GetCommand).resolves({});
    ddb.on(DeleteCommand).rejects(new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }));
    for (const command of ['show', 'resend', 'delete']) {
      const { code, out, err } = await run([command, 'nope']);
      expect(code).toBe(1);
      expect(out).toBe('');
      expect(err).toBe('✗ No message with id nope in the archive (`npm run messages` lists the ids).');
    }
    expect(ddb.commandCalls(UpdateCommand)).toHaveLength(0);
  });

  it('resend puts the message back to pending with its attempts kept and its claim dropped, and says when it goes', async () => {
    ddb.on(GetCommand).resolves({ Item: NEW });
    ddb.on(UpdateCommand).resolves({ Attributes: { status: 'failed' } });
    const { code, out } = await run(['resend', NEW.id]);
    expect(code).toBe(0);
    expect(out).toBe(`Message ${NEW.id} is pending again (was failed, 3 attempts so far): the redelivery sends it within 5 minutes.`);
    const update = ddb.commandCalls(UpdateCommand)[0]!.args[0].input;
    expect(update).toMatchObject({
      TableName: TABLE,
      Key: { id: NEW.id },
      UpdateExpression: 'SET #status = :pending, #pendingSince = :now REMOVE #claimedUntil',
      // A pending message may be in a sender's hands: its claim is never dropped.
      ConditionExpression: 'attribute_exists(#id) AND #status <> :pending',
      ExpressionAttributeNames: { '#id': 'id', '#status': 'status', '#claimedUntil': 'claimedUntil', '#pendingSince': 'pendingSince' },
      ExpressionAttributeValues: { ':pending': 'pending' },
    });
    expect(Date.parse(update.ExpressionAttributeValues![':now'] as string)).toBeGreaterThan(Date.now() - 60_000);
    expect(JSON.stringify(update)).not.toContain('attempts');
  });

  it('resend --failed resends every failed message found through the status index', async () => {
    ddb.on(QueryCommand).resolves({ Items: [{ id: 'a' }, { id: 'b' }] });
    ddb.on(UpdateCommand).resolves({ Attributes: { status: 'failed' } });
    const { code, out } = await run(['resend', '--failed']);
    expect(code).toBe(0);
    expect(out).toBe('2 failed messages are pending again: the redelivery sends them within 5 minutes.\n  a\n  b');
    expect(ddb.commandCalls(QueryCommand)[0]!.args[0].input).toMatchObject({
      TableName: TABLE,
      IndexName: 'byStatus',
      KeyConditionExpression: '#status = :failed',
      ExpressionAttributeValues: { ':failed': 'failed' },
    });
    expect(ddb.commandCalls(UpdateCommand).map((call) => call.args[0].input.Key)).toEqual([{ id: 'a' }, { id: 'b' }]);
  });

  it('delete erases one message by id, only if it exists, and names the backups that remain', async () => {
    ddb.on(DeleteCommand).resolves({});
    const { code, out } = await run(['delete', OLD.id]);
    expect(code).toBe(0);
    expect(out).toMatch(new RegExp(`^Deleted message ${OLD.id} from the archive of stack Portfolio .*35 days\\.$`));
    expect(ddb.commandCalls(DeleteCommand)[0]!.args[0].input).toEqual({
      TableName: TABLE,
      Key: { id: OLD.id },
      ConditionExpression: 'attribute_exists(#id)',
      ExpressionAttributeNames: { '#id': 'id' },
    });
  });
});

describe('finding the archive', () => {
  const dir = scratchDir('messages-cdk-json-');

  it('no stack: names the stack and the region, exit 1', async () => {
    cfn.on(DescribeStacksCommand).rejects(awsError('ValidationError', 'Stack with id Portfolio does not exist'));
    const { code, out, err } = await run([]);
    expect(code).toBe(1);
    expect(out).toBe('');
    expect(err.split('\n')).toEqual([
      expect.stringMatching(/^✗ Stack Portfolio not found in eu-west-1: deploy it first \(npm run deploy\)/),
    ]);
  });

  it('a stack from before the archive: says to deploy this version', async () => {
    cfn.on(DescribeStacksCommand).resolves(stackWith({ SiteUrl: 'https://d1.cloudfront.net' }));
    const { code, err } = await run([]);
    expect(code).toBe(1);
    expect(err).toMatch(/^✗ Stack Portfolio in eu-west-1 has no ArchiveTableName output: .*deploy this version/);
  });

  it('no credentials: one line naming how to set them', async () => {
    cfn.on(DescribeStacksCommand).rejects(awsError('CredentialsProviderError', 'Could not load credentials from any providers'));
    const { code, err } = await run([]);
    expect(code).toBe(1);
    expect(err.split('\n')).toEqual([expect.stringMatching(/^✗ No AWS credentials found: run `aws configure`.*--local$/)]);
  });

  it('access denied on the table: one line, not a stack trace', async () => {
    ddb.on(ScanCommand).rejects(awsError('AccessDeniedException', 'User is not authorized to perform dynamodb:Scan'));
    const { code, err } = await run([]);
    expect(code).toBe(1);
    expect(err).toBe('✗ AWS refused the request (AccessDeniedException): use the credentials you deploy with (AWS_PROFILE).');
  });

  it("--stage NAME reads that stage's stack, configured from cdk.json", async () => {
    const file = path.join(dir, 'cdk.json');
    writeFileSync(file, JSON.stringify({ context: { portfolio: { ...config, stackName: 'Portfolio', domain: null } } }));
    vi.stubEnv('PORTFOLIO_CDK_JSON', file);
    try {
      cfn.on(DescribeStacksCommand, { StackName: 'Portfolio-preview' }).resolves(stackWith({ ArchiveTableName: 'preview-table' }));
      ddb.on(ScanCommand, { TableName: 'preview-table' }).resolves({ Items: [OLD] });
      const { code, out } = await run(['--stage', 'preview', '--json'], { config: undefined });
      expect(code).toBe(0);
      expect(JSON.parse(out)).toHaveLength(1);
      cfn
        .on(DescribeStacksCommand, { StackName: 'Portfolio-preview' })
        .rejects(awsError('ValidationError', 'Stack with id Portfolio-preview does not exist'));
      expect((await run(['--stage', 'preview'], { config: undefined })).err).toMatch(
        /^✗ Stack Portfolio-preview not found in eu-west-1: deploy it first \(npm run deploy -- --stage preview\)/,
      );
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('the command line', () => {
  it.each([
    [['bogus'], /unknown command bogus/],
    [['show'], /show needs a message id/],
    [['delete'], /delete needs a message id/],
    [['resend', 'x', '--failed'], /an id or --failed, not both/],
    [['list', '--failed'], /--failed goes with resend/],
    [['--verbose'], /unknown option --verbose/],
    [['show', 'a', 'b'], /unexpected b/],
    [['--local', '--stage', 'x'], /no stage/],
    [['--stage'], /--stage needs a value/],
    [['--trial'], /deploy option/],
  ])('refuses %j', (argv, message) => {
    expect(() => parseMessagesArgs(argv)).toThrow(UsageError);
    expect(() => parseMessagesArgs(argv)).toThrow(message);
  });

  it('prints the usage on a mistake (exit 2, as every command) and on --help (exit 0), touching no AWS', async () => {
    const wrong = await run(['bogus']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toMatch(/^✗ unknown command bogus\n\nUsage: npm run messages/);
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/^Usage: npm run messages[\s\S]*resend --failed[\s\S]*--local/);
    expect(cfn.calls()).toHaveLength(0);
  });
});

describe('the flags a printed hint repeats', () => {
  it('names the archive the list was read from: --local, --stage NAME, or nothing', () => {
    expect(parseMessagesArgs(['--local']).scope).toBe(' --local');
    expect(parseMessagesArgs(['list', '--stage', 'pr-7']).scope).toBe(' --stage pr-7');
    expect(parseMessagesArgs([]).scope).toBe('');
  });
});
