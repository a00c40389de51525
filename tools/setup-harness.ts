/**
 * For the tests that spawn the real `npm run setup` and `npm run doctor`: a fake AWS on 127.0.0.1
 * (tools/fake-aws.ts, with its public DNS), a cdk.json of the test's own in a temporary folder, dummy
 * keys, and a stub `cdk` that records its argv and "bootstraps" by telling the fake account.
 */
import { spawn } from 'node:child_process';
import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAws, type FakeAws, type FakeAwsState } from './fake-aws';
import { scratchDir } from './scratch';

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Spawned {
  code: number;
  stdout: string;
  stderr: string;
}

export interface SetupHarness {
  aws: FakeAws;
  dir: string;
  cdkJson: string;
  cdkLog: string;
  /** `npm run --silent SCRIPT -- ARGS` with no terminal, stdin closed. */
  run(script: 'setup' | 'doctor', args: string[], env?: Record<string, string>): Promise<Spawned>;
  /** POST /__hooks/NAME?QUERY; fails the test when the hook refuses. */
  hook(name: string, query?: string): Promise<void>;
  /** cdk.json's context.portfolio as it is now. */
  portfolio(): Record<string, unknown>;
  stop(): Promise<void>;
}

export async function startSetupHarness(portfolio: Record<string, unknown>, initial: Partial<FakeAwsState> = {}): Promise<SetupHarness> {
  const aws = await startFakeAws(initial);
  const dir = scratchDir('setup-cli-');
  const cdkJson = path.join(dir, 'cdk.json');
  const cdkLog = path.join(dir, 'cdk-argv.log');
  writeFileSync(cdkJson, JSON.stringify({ app: 'unused', context: { portfolio } }, null, 2));
  const stub = path.join(dir, 'cdk');
  writeFileSync(
    stub,
    `#!${process.execPath}
const fs = require('node:fs');
fs.appendFileSync(${JSON.stringify(cdkLog)}, JSON.stringify(process.argv.slice(2)) + '\\n');
const target = /^aws:\\/\\/(\\d{12})\\/(.+)$/.exec(process.argv[3] || '');
if (process.argv[2] !== 'bootstrap' || !target) process.exit(3);
const flag = process.argv.indexOf('--cloudformation-execution-policies');
const policies = flag > 0 ? process.argv[flag + 1] : '';
const boundaryFlag = process.argv.indexOf('--custom-permissions-boundary');
const boundary = boundaryFlag > 0 ? process.argv[boundaryFlag + 1] : '';
fetch(${JSON.stringify(aws.url)} + '/__hooks/bootstrap?region=' + target[2] + '&version=33&policies=' + encodeURIComponent(policies) + '&boundary=' + encodeURIComponent(boundary), { method: 'POST' }).then(() => process.exit(0), () => process.exit(4));
`,
  );
  chmodSync(stub, 0o755);

  const run = (script: string, args: string[], env: Record<string, string> = {}) =>
    new Promise<Spawned>((resolve, reject) => {
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
          PORTFOLIO_CDK_CLI: stub,
          PORTFOLIO_DNS_SERVER: aws.dns,
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

  return {
    aws,
    dir,
    cdkJson,
    cdkLog,
    run,
    async hook(name, query = '') {
      const res = await fetch(`${aws.url}/__hooks/${name}?${query}`, { method: 'POST' });
      if (!res.ok) throw new Error(`hook ${name}?${query}: ${res.status} ${await res.text()}`);
    },
    portfolio: () => (JSON.parse(readFileSync(cdkJson, 'utf8')) as { context: { portfolio: Record<string, unknown> } }).context.portfolio,
    async stop() {
      await aws.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
