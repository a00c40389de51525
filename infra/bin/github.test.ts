/** infra/bin/github.ts, the app `npm run github-setup` deploys: synthesizes from the context it is given, or says what is missing. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runTsx, TSX_RUN_TIMEOUT_MS } from '../../tools/run-tsx';

const TIMEOUT = TSX_RUN_TIMEOUT_MS + 10_000;

const synth = (context: Record<string, string>) =>
  runTsx('infra/bin/github.ts', { CDK_CONTEXT_JSON: JSON.stringify(context), CDK_DEFAULT_ACCOUNT: '123456789012' });

describe('infra/bin/github.ts', () => {
  it(
    "synthesizes <stackName>-GitHub with the repository's immutable subjects, cdk-nag passing",
    async () => {
      const { status, stderr, out } = await synth({
        'github:repository': 'jane/site',
        'github:ownerId': '11',
        'github:repositoryId': '22',
      });
      expect(stderr).not.toMatch(/ERROR/);
      expect(status).toBe(0);
      const template = readFileSync(path.join(out, 'Portfolio-GitHub.template.json'), 'utf8');
      expect(template).toContain('"repo:jane@11/site@22:pull_request"');
      expect(template).toContain('"repo:jane@11/site@22:ref:refs/heads/main"');
    },
    TIMEOUT,
  );

  it(
    'imports the provider it is given',
    async () => {
      const arn = 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com';
      const { status, out } = await synth({ 'github:repository': 'jane/site', 'github:providerArn': arn });
      expect(status).toBe(0);
      const template = JSON.parse(readFileSync(path.join(out, 'Portfolio-GitHub.template.json'), 'utf8'));
      expect(JSON.stringify(template.Resources)).not.toContain('AWS::IAM::OIDCProvider');
      expect(JSON.stringify(template.Resources)).toContain(arn);
    },
    TIMEOUT,
  );

  it(
    'says what is missing without the repository',
    async () => {
      const { status, stderr } = await synth({});
      expect(status).toBe(1);
      expect(stderr.trim()).toBe('github:repository is missing: run `npm run github-setup`, which passes it.');
    },
    TIMEOUT,
  );
});
