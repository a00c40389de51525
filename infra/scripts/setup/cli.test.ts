/**
 * The real `npm run setup` (cli.ts), spawned against a fake AWS on 127.0.0.1 (tools/fake-aws.ts) with
 * dummy keys and a stub `cdk` that records its arguments: an empty account waits on the mail clicks
 * (exit 2), then, the clicks done by test hooks, is ready (exit 0) and `npm run doctor` agrees; the wrong
 * account stops at once; without a terminal and without --yes nothing hangs.
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMonthlyBudgetUsd } from '../../../contract/cost-model';
import { startSetupHarness, type SetupHarness } from '../../../tools/setup-harness';

const SECRET = 'cli-test-secret-never-printed-42';
let harness: SetupHarness;
let aws: SetupHarness['aws'];
let cdkJson: string;
let cdkLog: string;

beforeAll(async () => {
  harness = await startSetupHarness({
    ownerEmail: 'owner@example.com',
    senderEmail: 'portfolio@example.com',
    recaptchaSecretParameter: '/portfolio/recaptcha-secret',
    recaptchaSiteKey: null,
    domain: null,
  });
  ({ aws, cdkJson, cdkLog } = harness);
});
afterAll(() => harness.stop());

const run = (script: 'setup' | 'doctor', args: string[], env: Record<string, string> = {}) => harness.run(script, args, env);
const hook = (name: string, query: string) => harness.hook(name, query);

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
    expect(result.stdout.trim()).toBe(
      '✗ account 123456789012 is not the expected 999999999999 (--expect-account): switch credentials (e.g. export AWS_PROFILE=NAME) and run again',
    );
  }, 60_000);

  it('empty account → exit 2 waiting on the mail clicks → clicks → exit 0, and npm run doctor agrees', async () => {
    const args = [
      '--yes',
      '--json',
      '--expect-account',
      '123456789012',
      '--owner-email',
      'jane@owner-mail.dev',
      '--sender-email',
      'hello@jane.dev',
    ];
    const env = { CI: 'true', RECAPTCHA_SITE_KEY: 'a-real-looking-site-key-0123456789', RECAPTCHA_SECRET: SECRET };
    const first = await run('setup', args, env);
    expect(first.code).toBe(2);
    const json = JSON.parse(first.stdout) as { exitCode: number; results: { step: string; outcome: string; waitingOn?: string }[] };
    expect(json.exitCode).toBe(2);
    expect(json.results.filter((r) => r.outcome === 'waiting').map((r) => r.step)).toEqual(['SES sender', 'SES owner']);
    // Since when: from the tag setup put on each identity it created (the account keeps it, no local state).
    for (const waiting of json.results.filter((r) => r.outcome === 'waiting') as { since?: string }[]) {
      expect(Date.now() - Date.parse(waiting.since ?? '')).toBeLessThan(120_000);
    }
    expect(
      readFileSync(cdkLog, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as string[]),
    ).toEqual([
      // CloudFormation's role gets the scoped execution policy setup created, not AdministratorAccess, within its boundary.
      [
        'bootstrap',
        'aws://123456789012/us-east-1',
        '--cloudformation-execution-policies',
        'arn:aws:iam::123456789012:policy/Portfolio-cdk-execution',
        '--custom-permissions-boundary',
        'Portfolio-cdk-boundary',
        '--no-notices',
      ],
    ]);
    expect(aws.state.parameters['/portfolio/recaptcha-secret']).toEqual({ type: 'SecureString', value: SECRET });
    expect(`${first.stdout}${first.stderr}${readFileSync(cdkJson, 'utf8')}`).not.toContain(SECRET);

    await hook('click', 'identity=hello@jane.dev');
    await hook('click', 'identity=jane@owner-mail.dev');
    const second = await run('setup', ['--expect-account', '123456789012'], { CI: '1' });
    expect(second.stdout.trim().split('\n').at(-1)).toBe('Ready to deploy: npm run deploy');
    expect(second.code).toBe(0);
    expect(aws.state.writes).toEqual([
      'CreatePolicy Portfolio-cdk-boundary',
      'CreatePolicy Portfolio-cdk-execution',
      'CreateEmailIdentity hello@jane.dev',
      'CreateEmailIdentity jane@owner-mail.dev',
      'PutParameter /portfolio/recaptcha-secret SecureString',
      // Created on the first run (the real Budgets client, through the fake), found and kept on the second.
      'CreateBudget Portfolio-monthly-cost',
    ]);
    expect(aws.state.budgets['Portfolio-monthly-cost']).toMatchObject({
      // The default budget: a quiet month on the default plan and the flood ceiling (contract/cost-model.ts).
      limit: String(defaultMonthlyBudgetUsd()),
      alerts: ['ACTUAL>80%', 'ACTUAL>100%', 'FORECASTED>100%'],
      subscribers: ['jane@owner-mail.dev'],
    });

    const doctor = await run('doctor', []);
    expect(doctor.stdout).toContain('All 10 checks passed.');
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

    // After the first deploy: the record that points the name at CloudFront, from the stack's outputs.
    await hook('deploy', 'stack=Portfolio&owner=jane@owner-mail.dev');
    await hook('sns-confirm', 'endpoint=jane@owner-mail.dev');
    const deployed = await run('setup', args);
    expect(deployed.stdout).toContain('✓ Site record: at your DNS host: www.jane.dev CNAME d111111abcdef8.cloudfront.net');
    expect(deployed.code).toBe(0);
  }, 120_000);
});
