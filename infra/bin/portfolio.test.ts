/** The CDK app entry and `npm run deploy` stop on a bad configuration, naming the key, before any build. */
import { describe, expect, it } from 'vitest';
import { runTsx, TSX_RUN_TIMEOUT_MS } from '../../tools/run-tsx';
import { configFromContext, RECAPTCHA_TEST_SITE_KEY } from '../config/portfolio-config';

const run = runTsx;
const TIMEOUT = TSX_RUN_TIMEOUT_MS + 10_000;

describe('infra/bin/portfolio.ts (what `cdk synth` / `cdk deploy` run)', () => {
  it(
    'stops with every bad key named when the CLI passes a malformed portfolio block',
    async () => {
      const context = {
        portfolio: {
          ownerEmail: 'nope',
          senderEmail: 'contact@portfolio.dev',
          recaptchaSecretParameter: 'has spaces',
          recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
          gaMeasurementId: 'UA-1',
        },
      };
      const { status, stderr } = await run('infra/bin/portfolio.ts', { CDK_CONTEXT_JSON: JSON.stringify(context) });
      expect(status).toBe(1);
      expect(stderr).toContain('portfolio.ownerEmail: "nope" is not an e-mail address');
      expect(stderr).toContain('portfolio.recaptchaSecretParameter: "has spaces" is not an SSM parameter name');
      expect(stderr).toContain('portfolio.gaMeasurementId: "UA-1" is not a GA4 measurement id');
      expect(stderr).not.toContain('Building the site');
    },
    TIMEOUT,
  );

  it(
    "refuses Google's test site key for a real configuration unless the owner asks for a trial",
    async () => {
      const portfolio = {
        ownerEmail: 'owner@portfolio.dev',
        senderEmail: 'contact@portfolio.dev',
        recaptchaSecretParameter: '/portfolio/recaptcha-secret',
        recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
      };
      const refused = await run('infra/bin/portfolio.ts', { CDK_CONTEXT_JSON: JSON.stringify({ portfolio }) });
      expect(refused.status).toBe(1);
      expect(refused.stderr).toContain(`portfolio.recaptchaSiteKey: "${RECAPTCHA_TEST_SITE_KEY}" is Google's public test key`);
      expect(refused.stderr).not.toContain('Building the site');
      // A trial (what `npm run deploy -- --trial` passes) gets through the same check, in process.
      const context: Record<string, unknown> = { portfolio, 'portfolio:trial': 'true' };
      expect(configFromContext((key) => context[key])).toMatchObject({ trial: true, recaptchaSiteKey: portfolio.recaptchaSiteKey });
      expect(() => configFromContext((key) => ({ portfolio })[key as 'portfolio'])).toThrow(/public test key/);
      // The shipped example (example.com addresses) synthesizes offline; npm run deploy refuses it.
      const example = { ...portfolio, ownerEmail: 'owner@example.com', senderEmail: 'portfolio@example.com' };
      expect(configFromContext((key) => ({ portfolio: example })[key as 'portfolio']).trial).toBe(false);
      // One real address means a configuration meant for AWS: the key is checked again.
      const halfDone = { ...portfolio, ownerEmail: 'owner@example.com' };
      expect(() => configFromContext((key) => ({ portfolio: halfDone })[key as 'portfolio'])).toThrow(/public test key/);
      // No key at all means the test key: refused the same way, accepted for a trial.
      const { recaptchaSiteKey: _key, ...keyless } = portfolio;
      expect(() => configFromContext((key) => ({ portfolio: keyless })[key as 'portfolio'])).toThrow(/public test key/);
      const keylessTrial: Record<string, unknown> = { portfolio: keyless, 'portfolio:trial': 'true' };
      expect(configFromContext((key) => keylessTrial[key]).recaptchaSiteKey).toBe(RECAPTCHA_TEST_SITE_KEY);
    },
    TIMEOUT,
  );

  it(
    'stops when the block is missing',
    async () => {
      const { status, stderr } = await run('infra/bin/portfolio.ts', { CDK_CONTEXT_JSON: '{}' });
      expect(status).toBe(1);
      expect(stderr).toContain('portfolio: missing');
    },
    TIMEOUT,
  );
});

describe('npm run deploy (infra/scripts/deploy/cli.ts)', () => {
  it(
    'refuses the example addresses shipped in cdk.json before running cdk',
    async () => {
      const { status, stderr } = await run('infra/scripts/deploy/cli.ts');
      expect(status).toBe(1);
      expect(stderr).toMatch(/portfolio\.ownerEmail: "owner@example\.com" is an example address/);
      expect(stderr).toMatch(/portfolio\.senderEmail: .* is an example address/);
      expect(stderr).toContain('Edit cdk.json');
      expect(stderr).not.toMatch(/^Deploying /m);
    },
    TIMEOUT,
  );
});
