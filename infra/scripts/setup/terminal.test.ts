/**
 * `npm run setup` in a real terminal (tmux, its own server socket): the owner types the answers, the
 * secret shows masked, Ctrl-C at the secret stops with nothing of that step written, and the next run
 * asks only what is left. Against the fake AWS of tools/fake-aws.ts, with a stub cdk.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultMonthlyBudgetUsd } from '../../../contract/cost-model';
import { REPO_ROOT } from '../../config/portfolio-config';
import { startFakeAws, type FakeAws } from '../../../tools/fake-aws';
import { scratchDir } from '../../../tools/scratch';

const SOCKET = `setup-test-${process.pid}`;
const SECRET = 'typed-secret-that-must-stay-hidden';
let aws: FakeAws;
let dir: string;
let hasTmux = true;
try {
  execFileSync('tmux', ['-V']);
} catch {
  hasTmux = false;
}

const tmux = (...args: string[]) => execFileSync('tmux', ['-L', SOCKET, ...args], { encoding: 'utf8' });
/** The session of the current run (a new one per run: killing the last session would stop the server). */
let session = '';
const screen = () => tmux('capture-pane', '-p', '-t', session, '-S', '-200');

async function waitFor(text: string | RegExp, ms = 30_000): Promise<string> {
  const until = Date.now() + ms;
  for (;;) {
    const shown = screen();
    if (typeof text === 'string' ? shown.includes(text) : text.test(shown)) return shown;
    if (Date.now() > until) throw new Error(`not on screen within ${ms} ms: ${String(text)}\n---\n${shown}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}
/** The question `message` is the one waiting for input (clack marks the active question with ◆, answered ones with ◇). */
const asked = (message: string) => waitFor(`◆  ${message}`);
/** Types text, then Enter. */
const type = (text: string) => {
  if (text) tmux('send-keys', '-t', session, '-l', text);
  tmux('send-keys', '-t', session, 'Enter');
};

function start(runId: string) {
  const script = path.join(dir, `run-${runId}.sh`);
  writeFileSync(
    script,
    [
      '#!/bin/sh',
      `cd ${JSON.stringify(REPO_ROOT)}`,
      `export AWS_ENDPOINT_URL=${aws.url} AWS_ACCESS_KEY_ID=AKIAFAKEFAKEFAKEFAKE AWS_SECRET_ACCESS_KEY=fake AWS_REGION=us-east-1`,
      `export AWS_CONFIG_FILE=${dir}/none AWS_SHARED_CREDENTIALS_FILE=${dir}/none HOME=${dir}`,
      `export PORTFOLIO_CDK_JSON=${dir}/cdk.json PORTFOLIO_CDK_CLI=${dir}/cdk NO_COLOR=1`,
      'unset CI',
      'npm run --silent setup',
      `echo "EXIT:$? (${runId})"`,
      'sleep 600',
    ].join('\n'),
  );
  chmodSync(script, 0o755);
  const previous = session;
  session = `setup-${runId}`;
  tmux('new-session', '-d', '-s', session, '-x', '160', '-y', '50', script);
  if (previous) tmux('kill-session', '-t', previous);
}

beforeAll(async () => {
  if (!hasTmux) return;
  aws = await startFakeAws();
  dir = scratchDir('setup-tty-');
  writeFileSync(
    path.join(dir, 'cdk.json'),
    JSON.stringify(
      {
        context: {
          portfolio: {
            ownerEmail: 'owner@example.com',
            senderEmail: 'portfolio@example.com',
            recaptchaSecretParameter: '/portfolio/recaptcha-secret',
          },
        },
      },
      null,
      2,
    ),
  );
  writeFileSync(
    path.join(dir, 'cdk'),
    // The policies and boundary cdk bootstrap was given go to the fake's CDKToolkit stack, as CloudFormation keeps its parameters.
    `#!${process.execPath}\nconst policies = process.argv[process.argv.indexOf('--cloudformation-execution-policies') + 1] || '';\n` +
      `const boundary = process.argv[process.argv.indexOf('--custom-permissions-boundary') + 1] || '';\n` +
      `fetch(${JSON.stringify(aws.url)} + '/__hooks/bootstrap?region=us-east-1&version=33&policies=' + encodeURIComponent(policies) + '&boundary=' + encodeURIComponent(boundary), { method: 'POST' }).then(() => process.exit(0));\n`,
  );
  chmodSync(path.join(dir, 'cdk'), 0o755);
});
afterAll(async () => {
  if (!hasTmux) return;
  try {
    tmux('kill-server');
  } catch {
    // already gone
  }
  await aws.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!hasTmux)('npm run setup in a terminal', () => {
  it('answers typed, the secret masked, Ctrl-C mid-way, then a re-run asks only what is left', async () => {
    start('first');
    await asked('Your address');
    type('jane@owner-mail.dev');
    await asked('The From address');
    type('hello@jane.dev');
    await asked(`Make changes in AWS account 123456789012`);
    type('');
    expect(await asked('Write this to cdk.json?')).toContain('+ "ownerEmail": "jane@owner-mail.dev"');
    type('');
    // Asked once, each tier with its price; Enter takes the default, kept in cdk.json.
    expect(await asked('The CloudFront plan')).toContain('Pro: $15 a month, 10 M requests and 50 TB included');
    type('');
    expect(await asked('Write this to cdk.json?')).toContain('+ "cloudFrontPlan": "pro"');
    type('');
    await asked('bootstrap CDK in us-east-1');
    type('');
    await asked('create the SES identity hello@jane.dev');
    type('');
    await asked('create the SES identity jane@owner-mail.dev');
    type('');
    // Asked once, opt-in: Enter alone answers no (the sandbox is enough), and the no is kept in cdk.json.
    await asked('Ask AWS for SES production access in us-east-1');
    type('');
    expect(await asked('Write this to cdk.json?')).toContain('+ "sesProductionAccess": false');
    type('');
    await asked('The reCAPTCHA site key');
    type('a-real-looking-site-key-0123456789');
    await asked('Write this to cdk.json?');
    type('');
    await asked('The reCAPTCHA secret key');
    tmux('send-keys', '-t', session, '-l', SECRET);
    const masked = await waitFor('▪▪▪▪');
    expect(masked).not.toContain(SECRET);
    tmux('send-keys', '-t', session, 'C-c');
    const cut = await waitFor(/EXIT:1 \(first\)/);
    expect(cut).toContain('cancelled at "recaptcha-secret"');
    expect(aws.state.parameters).toEqual({});
    expect(JSON.parse(readFileSync(path.join(dir, 'cdk.json'), 'utf8')).context.portfolio.recaptchaSiteKey).toBe(
      'a-real-looking-site-key-0123456789',
    );

    start('again');
    await asked('The reCAPTCHA secret key');
    const resumed = screen();
    expect(resumed).not.toContain('Your address');
    expect(resumed).not.toContain('bootstrap CDK');
    expect(resumed).not.toContain('Ask AWS for SES production access');
    expect(resumed).not.toContain('The CloudFront plan');
    type(SECRET);
    await asked(`Make changes in AWS account 123456789012`);
    type('');
    await asked('create the SecureString /portfolio/recaptcha-secret');
    type('');
    // No domain key in cdk.json: asked once; the first option is "No", and "domain": null keeps that answer.
    await asked('Serve the site on a domain of yours?');
    type('');
    expect(await asked('Write this to cdk.json?')).toContain('+ "domain": null');
    type('');
    // The last step: the account's cost budget, mailing the owner.
    // The default budget for the plan chosen above: a quiet month and the flood ceiling (contract/cost-model.ts).
    await asked(`create the AWS Budgets cost budget Portfolio-monthly-cost: $${defaultMonthlyBudgetUsd('pro')} a month`);
    type('');
    const end = await waitFor(/EXIT:2 \(again\)/);
    expect(Object.keys(aws.state.budgets)).toEqual(['Portfolio-monthly-cost']);
    expect(end).toContain('Waiting on 2 things');
    expect(end).not.toContain(SECRET);
    expect(aws.state.parameters['/portfolio/recaptcha-secret']).toEqual({ type: 'SecureString', value: SECRET });
    expect(JSON.parse(readFileSync(path.join(dir, 'cdk.json'), 'utf8')).context.portfolio).toMatchObject({
      sesProductionAccess: false,
      domain: null,
    });
  }, 120_000);
});
