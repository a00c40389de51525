/** infra/bin/github.ts, the app `npm run github-setup` deploys: synthesizes from the context it is given, or says what is missing. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config/portfolio-config';

const TSX = path.join(REPO_ROOT, 'node_modules', '.bin', 'tsx');

function synth(context: Record<string, string>) {
  const out = mkdtempSync(path.join(tmpdir(), 'cdk-out-github-'));
  const result = spawnSync(TSX, [path.join(REPO_ROOT, 'infra/bin/github.ts')], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    timeout: 110_000,
    env: { ...process.env, CDK_OUTDIR: out, CDK_CONTEXT_JSON: JSON.stringify(context), CDK_DEFAULT_ACCOUNT: '123456789012' },
  });
  return { status: result.status, stderr: result.stderr, out };
}

describe('infra/bin/github.ts', () => {
  it('synthesizes <stackName>-GitHub with the repository\'s immutable subjects, cdk-nag passing', () => {
    const { status, stderr, out } = synth({ 'github:repository': 'jane/site', 'github:ownerId': '11', 'github:repositoryId': '22' });
    expect(stderr).not.toMatch(/ERROR/);
    expect(status).toBe(0);
    const template = readFileSync(path.join(out, 'Portfolio-GitHub.template.json'), 'utf8');
    expect(template).toContain('"repo:jane@11/site@22:pull_request"');
    expect(template).toContain('"repo:jane@11/site@22:ref:refs/heads/main"');
  }, 120_000);

  it('imports the provider it is given', () => {
    const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
    const { status, out } = synth({ 'github:repository': 'jane/site', 'github:providerArn': arn });
    expect(status).toBe(0);
    const template = JSON.parse(readFileSync(path.join(out, 'Portfolio-GitHub.template.json'), 'utf8'));
    expect(JSON.stringify(template.Resources)).not.toContain('AWS::IAM::OIDCProvider');
    expect(JSON.stringify(template.Resources)).toContain(arn);
  }, 120_000);

  it('says what is missing without the repository', () => {
    const { status, stderr } = synth({});
    expect(status).toBe(1);
    expect(stderr.trim()).toBe('github:repository is missing: run `npm run github-setup`, which passes it.');
  }, 120_000);
});
