/**
 * The real `npm run setup` (cli.ts), spawned against a fake AWS on 127.0.0.1 (tools/fake-aws.ts) with
 * dummy keys and a stub `cdk` that records its arguments: an empty account waits on the mail clicks
 * (exit 2), then, the clicks done by test hooks, is ready (exit 0) and `npm run doctor` agrees; the wrong
 * account stops at once; without a terminal and without --yes nothing hangs.
 */
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../config/portfolio-config';
import { startFakeAws, type FakeAws } from '../../../tools/fake-aws';

const SECRET = 'cli-test-secret-never-printed-42';
let aws: FakeAws;
let dir: string;
let cdkJson: string;
let cdkLog: string;

beforeAll(async () => {
  aws = await startFakeAws();
  dir = mkdtempSync(path.join(tmpdir(), 'setup-cli-'));
  cdkJson = path.join(dir, 'cdk.json');
  cdkLog = path.join(dir, 'cdk-argv.log');
  writeFileSync(
    cdkJson,
    JSON.stringify(
      { app: 'unused', context: { portfolio: { ownerEmail: 'owner@example.com', senderEmail: 'portfolio@example.com', recaptchaSecretParameter: '/portfolio/recaptcha-secret', recaptchaSiteKey: null, domain: null } } },
      null,
      2,
    ),
  );
  // The stub cdk: records its argv, and "bootstraps" by telling the fake account.
  const stub = path.join(dir, 'cdk');
  writeFileSync(
    stub,
    `#!${process.execPath}
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(cdkLog)}, JSON.stringify(process.argv.slice(2)) + '\\n');
const target = /^aws:\\/\\/(\\d{12})\\/(.+)$/.exec(process.argv[3] || '');
if (process.argv[2] !== 'bootstrap' || !target) process.exit(3);
fetch(${JSON.stringify(aws.url)} + '/__hooks/bootstrap?region=' + target[2] + '&version=33', { method: 'POST' }).then(() => process.exit(0), () => process.exit(4));
`,
  );
  chmodSync(stub, 0o755);
});
afterAll(async () => {
  await aws.stop();
  rmSync(dir, { recursive: true, force: true });
});

function run(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('npm', ['run', '--silent', script, '--', ...args], {
      cwd: REPO_ROOT,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: {
        PATH: process.env.PATH,
        HOME: dir,
        AWS_ENDPOINT_URL: aws.url,
        AWS_ACCESS_KEY_ID: 'AKIAFAKEFAKEFAKEFAKE',
        AWS_SECRET_ACCESS_KEY: 'fake-secret-key',
        AWS_REGION: 'us-east-1',
        AWS_CONFIG_FILE: path.join(dir, 'no-aws-config'),
        AWS_SHARED_CREDENTIALS_FILE: path.join(dir, 'no-aws-credentials'),
        PORTFOLIO_CDK_JSON: cdkJson,
        PORTFOLIO_CDK_CLI: path.join(dir, 'cdk'),
        ...env,
      },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdin.end();
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

const hook = (name: string, query: string) => fetch(`${aws.url}/__hooks/${name}?${query}`, { method: 'POST' });

describe('npm run setup, spawned against a fake AWS', () => {
  it('without a terminal and without --yes: stops at the first change naming --yes, nothing hangs or is written', async () => {
    const before = readFileSync(cdkJson, 'utf8');
    const result = await run('setup', ['--owner-email', 'jane@owner-mail.dev', '--sender-email', 'hello@jane.dev']);
    expect(result.code).toBe(1);
    expect(result.stdout).toMatch(/✗ Write this to cdk\.json\?: needs your yes; without a terminal pass --yes/);
    expect(readFileSync(cdkJson, 'utf8')).toBe(before);
  }, 60_000);

  it('the wrong account: one line, exit 1', async () => {
    const result = await run('setup', ['--yes', '--expect-account', '999999999999']);
    expect(result.code).toBe(1);
    expect(result.stdout.trim()).toBe('✗ account 123456789012 is not the expected 999999999999 (--expect-account): switch credentials (e.g. export AWS_PROFILE=NAME) and run again');
  }, 60_000);

  it('empty account → exit 2 waiting on the mail clicks → clicks → exit 0, and npm run doctor agrees', async () => {
    const args = ['--yes', '--json', '--expect-account', '123456789012', '--owner-email', 'jane@owner-mail.dev', '--sender-email', 'hello@jane.dev'];
    const env = { CI: 'true', RECAPTCHA_SITE_KEY: 'a-real-looking-site-key-0123456789', RECAPTCHA_SECRET: SECRET };
    const first = await run('setup', args, env);
    expect(first.code).toBe(2);
    const json = JSON.parse(first.stdout) as { exitCode: number; results: { step: string; outcome: string; waitingOn?: string }[] };
    expect(json.exitCode).toBe(2);
    expect(json.results.filter((r) => r.outcome === 'waiting').map((r) => r.step)).toEqual(['SES sender', 'SES owner']);
    expect(readFileSync(cdkLog, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as string[])).toEqual([
      ['bootstrap', 'aws://123456789012/us-east-1', '--no-notices'],
    ]);
    expect(aws.state.parameters['/portfolio/recaptcha-secret']).toEqual({ type: 'SecureString', value: SECRET });
    expect(`${first.stdout}${first.stderr}${readFileSync(cdkJson, 'utf8')}`).not.toContain(SECRET);

    await hook('click', 'identity=hello@jane.dev');
    await hook('click', 'identity=jane@owner-mail.dev');
    const second = await run('setup', ['--expect-account', '123456789012'], { CI: '1' });
    expect(second.stdout.trim().split('\n').at(-1)).toBe('Ready to deploy: npm run deploy');
    expect(second.code).toBe(0);
    expect(aws.state.writes).toEqual([
      'CreateEmailIdentity hello@jane.dev',
      'CreateEmailIdentity jane@owner-mail.dev',
      'PutParameter /portfolio/recaptcha-secret SecureString',
    ]);

    const doctor = await run('doctor', []);
    expect(doctor.stdout).toContain('All 8 checks passed.');
    expect(doctor.code).toBe(0);
    // Not a terminal: no colour codes anywhere.
    expect(`${first.stdout}${first.stderr}${second.stdout}${second.stderr}`).not.toContain('\u001b[');
  }, 120_000);

  it('external DNS: requests the certificate, exit 2 with its validation record; once published, exit 0 and the doctor agrees', async () => {
    const args = ['--yes', '--expect-account', '123456789012', '--domain', 'www.jane.dev', '--external-dns'];
    const first = await run('setup', args);
    expect(first.code).toBe(2);
    const [arn, certificate] = Object.entries(aws.state.certificates)[0]!;
    expect(certificate.domain).toBe('www.jane.dev');
    expect(JSON.parse(readFileSync(cdkJson, 'utf8')).context.portfolio.domain).toEqual({ domainName: 'www.jane.dev', certificateArn: arn });
    const record = /publish (\S+) CNAME (\S+) \(ACM then issues it\)/.exec(first.stdout);
    expect(record).not.toBeNull();

    await hook('dns', `name=${encodeURIComponent(record![1]!)}&value=${encodeURIComponent(record![2]!)}`);
    const second = await run('setup', args);
    expect(second.stdout).toContain('www.jane.dev issued');
    expect(second.code).toBe(0);
    expect(Object.keys(aws.state.certificates)).toHaveLength(1);
    const doctor = await run('doctor', []);
    expect(doctor.stdout).toMatch(/✓ Certificate +www\.jane\.dev issued/);
    expect(doctor.code).toBe(0);
  }, 120_000);
});
