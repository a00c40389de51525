import { dailyRequestsFromBudget, defaultMonthlyBudgetUsd } from '../../contract/cost-model';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CDK_JSON_FILE,
  ConfigError,
  deployReadinessProblems,
  loadConfigFromCdkJson,
  parseConfig,
  planRegionProblem,
  RECAPTCHA_TEST_SECRET,
  RECAPTCHA_TEST_SITE_KEY,
  trialNotice,
  trialProblems,
  webBuildEnv,
} from './portfolio-config';
import { scratchDir } from '../../tools/scratch';

const VALID = {
  ownerEmail: 'owner@portfolio.dev',
  senderEmail: 'contact@mail.portfolio.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
};

function problemsOf(raw: unknown): string[] {
  try {
    parseConfig(raw);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('parseConfig', () => {
  it('fills the defaults around the required values', () => {
    expect(parseConfig(VALID)).toEqual({
      ...VALID,
      stackName: 'Portfolio',
      region: 'us-east-1',
      senderIdentity: VALID.senderEmail,
      previewRecaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
      previewRecaptchaSecretParameter: '',
      gaMeasurementId: '',
      contactEndpoint: '/api/contact',
      eventsEndpoint: '/api/events',
      logRetentionDays: 30,
      messageRetentionDays: 365,
      captchaMonthlyBudget: 9000,
      monthlyBudgetUsd: defaultMonthlyBudgetUsd('pro'),
      circuitBreaker: dailyRequestsFromBudget(defaultMonthlyBudgetUsd('pro'), 'pro'),
      deleteArchiveOnDestroy: false,
      domain: null,
      cloudFrontPlan: 'pro',
      stage: '',
      trial: false,
      siteUrl: '',
    });
  });

  it('takes the CloudFront plan, refuses an unknown one, and says a plan needs us-east-1', () => {
    expect(parseConfig({ ...VALID, cloudFrontPlan: 'free' }).cloudFrontPlan).toBe('free');
    expect(problemsOf({ ...VALID, cloudFrontPlan: 'Pro' })).toEqual([
      expect.stringMatching(/^portfolio\.cloudFrontPlan: "Pro" is not one of "payAsYouGo"/),
    ]);
    expect(planRegionProblem(parseConfig({ ...VALID, region: 'eu-west-1' }))).toMatch(
      /^portfolio\.cloudFrontPlan: "pro" needs portfolio\.region "us-east-1".*"payAsYouGo" on purpose/,
    );
    expect(planRegionProblem(parseConfig({ ...VALID, region: 'eu-west-1', cloudFrontPlan: 'payAsYouGo' }))).toBeUndefined();
    // A stage is pay-as-you-go whatever the live site's plan.
    expect(planRegionProblem(parseConfig({ ...VALID, region: 'eu-west-1', stage: 'staging' }))).toBeUndefined();
    expect(planRegionProblem(parseConfig(VALID))).toBeUndefined();
    // The previews' plan, absent: the site's; set apart, and refused as the site's is.
    expect(parseConfig(VALID).previewCloudFrontPlan).toBeUndefined();
    expect(parseConfig({ ...VALID, previewCloudFrontPlan: 'payAsYouGo' }).previewCloudFrontPlan).toBe('payAsYouGo');
    expect(problemsOf({ ...VALID, previewCloudFrontPlan: 'gold' })).toEqual([
      expect.stringMatching(/^portfolio\.previewCloudFrontPlan: "gold" is not one of/),
    ]);
    expect(
      planRegionProblem(parseConfig({ ...VALID, region: 'eu-west-1', cloudFrontPlan: 'payAsYouGo', previewCloudFrontPlan: 'pro' })),
    ).toMatch(/"pro" needs portfolio\.region "us-east-1"/);
  });

  it("takes each route's daily number for the circuit breaker, has the rest from the budget, and names a bad one", () => {
    const fromBudget = (usd: number) => dailyRequestsFromBudget(usd, 'pro');
    expect(parseConfig({ ...VALID, circuitBreaker: { contact: 900 } }).circuitBreaker).toEqual({
      ...fromBudget(defaultMonthlyBudgetUsd('pro')),
      contact: 900,
    });
    // A larger budget, larger numbers: they come from it through the cost model.
    expect(parseConfig({ ...VALID, monthlyBudgetUsd: 60 }).circuitBreaker).toEqual(fromBudget(60));
    expect(fromBudget(60).vitals).toBeGreaterThan(fromBudget(defaultMonthlyBudgetUsd('pro')).vitals);
    // Below the floor, ten addresses' shares could trip it.
    expect(() => parseConfig({ ...VALID, circuitBreaker: { contact: 20, vitals: 2.5, beacons: 3 } })).toThrow(
      /circuitBreaker\.contact: 20 is not a whole number of counted contact requests a day from 800[\s\S]*circuitBreaker\.vitals: 2\.5[\s\S]*circuitBreaker\.beacons: unknown key \(known: contact, events, vitals\)/,
    );
    expect(() => parseConfig({ ...VALID, circuitBreaker: 500 })).toThrow(/circuitBreaker: must be an object/);
  });

  it("takes Google's test site key when recaptchaSiteKey is absent, null or blank (cdk.json never copies it)", () => {
    const { recaptchaSiteKey: _own, ...withoutKey } = VALID;
    for (const raw of [withoutKey, { ...withoutKey, recaptchaSiteKey: null }, { ...withoutKey, recaptchaSiteKey: '  ' }]) {
      expect(parseConfig(raw).recaptchaSiteKey).toBe(RECAPTCHA_TEST_SITE_KEY);
    }
    expect(trialProblems(parseConfig(withoutKey))).toEqual([
      expect.stringMatching(/^portfolio\.recaptchaSiteKey: .*Google's public test key, the one used when the key is absent or null/),
    ]);
    expect(trialProblems(parseConfig({ ...withoutKey, trial: true }))).toEqual([]);
  });

  it('reports a missing block', () => {
    expect(problemsOf(undefined)).toEqual([expect.stringMatching(/^portfolio: missing/)]);
    expect(problemsOf([])).toEqual([expect.stringMatching(/^portfolio: missing/)]);
  });

  it('names every missing required key at once', () => {
    expect(problemsOf({})).toEqual([
      'portfolio.ownerEmail: missing',
      'portfolio.senderEmail: missing',
      'portfolio.recaptchaSecretParameter: missing',
    ]);
    expect(problemsOf({ ...VALID, ownerEmail: '   ' })).toEqual(['portfolio.ownerEmail: missing']);
  });

  it.each([
    ['ownerEmail', 'not-an-email'],
    ['ownerEmail', 'a@b'],
    ['ownerEmail', 'a b@c.dev'],
    ['senderEmail', 'x@@y.dev'],
    ['senderEmail', 42],
    ['senderIdentity', 'other.dev'],
    ['recaptchaSecretParameter', 'no spaces allowed'],
    ['recaptchaSecretParameter', '/aws/reserved'],
    ['recaptchaSecretParameter', 'ssm-reserved'],
    ['recaptchaSecretParameter', '/trailing/'],
    ['recaptchaSecretParameter', 'arn:aws:ssm:us-east-1:1:parameter/x'],
    ['recaptchaSiteKey', 'short'],
    ['recaptchaSiteKey', 'has space in it but is long enough'],
    ['gaMeasurementId', 'UA-12345-1'],
    ['gaMeasurementId', 'g-abc123'],
    ['region', 'Europe'],
    ['stackName', '1stack'],
    ['contactEndpoint', 'http://insecure.example.dev/api'],
    ['eventsEndpoint', 'api/events'],
    ['logRetentionDays', 31],
    ['logRetentionDays', '30'],
    ['messageRetentionDays', 0],
    ['messageRetentionDays', 3651],
    ['messageRetentionDays', 30.5],
    ['messageRetentionDays', '365'],
    ['deleteArchiveOnDestroy', 'yes'],
    ['stage', 'Preview'],
    ['stage', 'a-very-long-stage-name-indeed'],
    ['trial', 'yes'],
    ['siteUrl', 'http://d111.cloudfront.net'],
    ['siteUrl', 'https://d111.cloudfront.net/path'],
  ])('rejects %s = %j, naming the key', (key, value) => {
    const problems = problemsOf({ ...VALID, [key]: value });
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(new RegExp(`^portfolio\\.${key}: `));
  });

  it('reports every problem at once, cross-key checks included', () => {
    expect(problemsOf({ ...VALID, ownerEmail: 'nope', senderIdentity: 'other.dev', logRetentionDays: 2, typo: 1 })).toEqual([
      'portfolio.ownerEmail: "nope" is not an e-mail address',
      expect.stringMatching(/^portfolio\.logRetentionDays: 2 is not one of 1, 3, 5/),
      expect.stringMatching(/^portfolio\.typo: unknown key \(known: stackName, region, /),
      'portfolio.senderIdentity: "other.dev" is not the sender address or its domain ("contact@mail.portfolio.dev" or "mail.portfolio.dev")',
    ]);
  });

  it('rejects unknown keys, so a typo does not silently fall back to a default', () => {
    expect(problemsOf({ ...VALID, ownerEmial: 'x@y.dev' })).toEqual([expect.stringMatching(/^portfolio\.ownerEmial: unknown key/)]);
  });

  it('accepts the sender domain as the SES identity, and good optional values', () => {
    const config = parseConfig({
      ...VALID,
      senderIdentity: 'mail.portfolio.dev',
      gaMeasurementId: 'G-AB12CD34EF',
      region: 'eu-west-1',
      recaptchaSecretParameter: 'recaptcha_secret.v2',
      eventsEndpoint: 'https://api.portfolio.dev/events',
      logRetentionDays: 90,
    });
    expect(config.senderIdentity).toBe('mail.portfolio.dev');
    expect(config.logRetentionDays).toBe(90);
  });

  it('takes the archive settings, and names the key and the range when a retention is wrong', () => {
    const config = parseConfig({ ...VALID, messageRetentionDays: 30, deleteArchiveOnDestroy: true });
    expect(config).toMatchObject({ messageRetentionDays: 30, deleteArchiveOnDestroy: true });
    expect(parseConfig({ ...VALID, messageRetentionDays: 3650 }).messageRetentionDays).toBe(3650);
    expect(problemsOf({ ...VALID, messageRetentionDays: -7 })).toEqual([
      'portfolio.messageRetentionDays: -7 is not a whole number of days from 1 to 3650 (default 365)',
    ]);
  });

  describe('stage', () => {
    const domain = { domainName: 'www.portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };

    it('is the live site by default, under the configured stack name and domain', () => {
      const config = parseConfig({ ...VALID, stackName: 'Site', domain });
      expect(config).toMatchObject({ stage: '', stackName: 'Site', domain, siteUrl: 'https://www.portfolio.dev' });
    });

    it('names a preview its own stack and serves it on its own CloudFront domain, never the live domain', () => {
      const config = parseConfig({ ...VALID, stackName: 'Site', domain, stage: 'preview-2' });
      expect(config).toMatchObject({ stage: 'preview-2', stackName: 'Site-preview-2', domain: null, siteUrl: '' });
    });
  });

  describe('trial', () => {
    it('accepts true/false, as JSON or as the strings cdk -c passes', () => {
      expect(parseConfig({ ...VALID, trial: true }).trial).toBe(true);
      expect(parseConfig({ ...VALID, trial: 'true' }).trial).toBe(true);
      expect(parseConfig({ ...VALID, trial: 'false' }).trial).toBe(false);
    });

    it("refuses Google's test site key unless the owner asks for a trial", () => {
      expect(trialProblems(parseConfig({ ...VALID, recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY }))).toEqual([
        expect.stringMatching(/^portfolio\.recaptchaSiteKey: .*Google's public test key.*--trial/),
      ]);
      expect(trialProblems(parseConfig({ ...VALID, recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY, trial: true }))).toEqual([]);
      expect(trialProblems(parseConfig({ ...VALID, recaptchaSiteKey: '6LcOwnKeyOwnKeyOwnKeyOwnKey' }))).toEqual([]);
    });

    it('never tells anyone to store a secret: the stack keeps the test secret, the live parameter stays untouched', () => {
      const notice = trialNotice(parseConfig({ ...VALID, region: 'eu-west-1', trial: true }))!;
      expect(notice).toContain('The SSM parameter /portfolio/recaptcha-secret is neither read nor changed');
      expect(notice).toContain('nothing to store');
      expect(notice).not.toContain('put-parameter');
      expect(notice).not.toContain(RECAPTCHA_TEST_SECRET);
      const preview = trialNotice(parseConfig({ ...VALID, stage: 'pr-7' }))!;
      expect(preview).toMatch(/^Preview pr-7: /);
      expect(preview).not.toContain('/portfolio/recaptcha-secret');
      expect(trialNotice(parseConfig({ ...VALID, recaptchaSiteKey: '6LcOwnKeyOwnKeyOwnKeyOwnKey' }))).toBeUndefined();
    });
  });

  describe('preview stages', () => {
    const OWN = '6LcOwnKeyOwnKeyOwnKeyOwnKey';

    it("take Google's test key, never the live key or the live secret's parameter, and drop their archive", () => {
      const preview = parseConfig({ ...VALID, recaptchaSiteKey: OWN, stage: 'pr-3' });
      expect(preview).toMatchObject({
        recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
        recaptchaSecretParameter: '',
        deleteArchiveOnDestroy: true,
        stackName: 'Portfolio-pr-3',
      });
      expect(JSON.stringify(preview)).not.toContain('/portfolio/recaptcha-secret');
      expect(trialProblems(preview)).toEqual([]); // a preview is a trial by nature
      const live = parseConfig({ ...VALID, recaptchaSiteKey: OWN });
      expect(live).toMatchObject({
        recaptchaSiteKey: OWN,
        recaptchaSecretParameter: '/portfolio/recaptcha-secret',
        deleteArchiveOnDestroy: false,
      });
    });

    it('take a key of their own with its own parameter', () => {
      const raw = { ...VALID, previewRecaptchaSiteKey: OWN, previewRecaptchaSecretParameter: '/portfolio/preview-recaptcha-secret' };
      expect(parseConfig({ ...raw, stage: 'pr-3' })).toMatchObject({
        recaptchaSiteKey: OWN,
        recaptchaSecretParameter: '/portfolio/preview-recaptcha-secret',
      });
      expect(parseConfig(raw).recaptchaSecretParameter).toBe('/portfolio/recaptcha-secret');
    });

    it.each([
      [{ previewRecaptchaSiteKey: OWN }, /^portfolio\.previewRecaptchaSecretParameter: missing/],
      [
        { previewRecaptchaSecretParameter: '/portfolio/preview-secret' },
        /^portfolio\.previewRecaptchaSecretParameter: only with previewRecaptchaSiteKey/,
      ],
      [
        { previewRecaptchaSiteKey: OWN, previewRecaptchaSecretParameter: '/portfolio/recaptcha-secret' },
        /^portfolio\.previewRecaptchaSecretParameter: "\/portfolio\/recaptcha-secret" is the live site's recaptchaSecretParameter/,
      ],
    ])('refuse %j', (extra, message) => {
      expect(() => parseConfig({ ...VALID, ...extra })).toThrow(ConfigError);
      try {
        parseConfig({ ...VALID, ...extra });
      } catch (error) {
        expect((error as ConfigError).problems).toEqual([expect.stringMatching(message)]);
      }
    });
  });

  describe('domain', () => {
    const ARN = 'arn:aws:acm:us-east-1:123456789012:certificate/01234567-aaaa-bbbb-cccc-000000000000';
    const domain = { domainName: 'www.portfolio.dev', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'portfolio.dev' };

    it('is optional: null or absent means the CloudFront domain', () => {
      expect(parseConfig({ ...VALID, domain: null }).domain).toBeNull();
      expect(parseConfig(VALID).siteUrl).toBe('');
    });

    it('takes a domain with DNS outside Route 53: its name and the us-east-1 certificate', () => {
      const config = parseConfig({ ...VALID, domain: { domainName: 'www.portfolio.dev', certificateArn: ARN } });
      expect(config.domain).toEqual({ domainName: 'www.portfolio.dev', certificateArn: ARN });
      expect(config.siteUrl).toBe('https://www.portfolio.dev');
    });

    it('normalizes a complete domain and gives the site URL', () => {
      const config = parseConfig({ ...VALID, domain: { ...domain, domainName: 'WWW.Portfolio.dev.' } });
      expect(config.domain).toEqual(domain);
      expect(config.siteUrl).toBe('https://www.portfolio.dev');
    });

    it.each([
      [{ ...domain, hostedZoneId: undefined }, 'portfolio.domain.hostedZoneId: missing'],
      [{ ...domain, hostedZoneId: 'not-a-zone' }, 'portfolio.domain.hostedZoneId: '],
      [{ ...domain, domainName: 'under_score.portfolio.dev' }, 'portfolio.domain.domainName: '],
      [{ ...domain, domainName: 'www.elsewhere.dev' }, 'portfolio.domain.domainName: "www.elsewhere.dev" is not inside'],
      [{ ...domain, extra: 1 }, 'portfolio.domain.extra: unknown key'],
      ['www.portfolio.dev', 'portfolio.domain: must be null or'],
      [
        { domainName: 'www.portfolio.dev', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' },
        'portfolio.domain.certificateArn: "arn:aws:acm:eu-west-1:123456789012:certificate/abc" is not an ACM certificate ARN in us-east-1',
      ],
      [{ ...domain, certificateArn: ARN }, 'portfolio.domain.hostedZoneId: not with certificateArn'],
      [
        { domainName: 'portfolio.dev', certificateArn: ARN },
        'portfolio.domain.domainName: "portfolio.dev" is a zone apex: outside Route 53 it cannot point at CloudFront',
      ],
      [
        { domainName: 'www.portfolio.dev' },
        'portfolio.domain.hostedZoneId: missing (a custom domain needs domainName, hostedZoneId and hostedZoneName; or, with DNS outside Route 53, domainName and certificateArn)',
      ],
    ])('names the bad domain key (%j)', (value, message) => {
      const problems = problemsOf({ ...VALID, domain: value });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain(message);
    });
  });
});

describe('webBuildEnv', () => {
  it('injects the endpoints, keys and site URL the web build reads', () => {
    const config = parseConfig({
      ...VALID,
      gaMeasurementId: 'G-AB12CD34EF',
      domain: { domainName: 'portfolio.dev', hostedZoneId: 'Z123', hostedZoneName: 'portfolio.dev' },
    });
    expect(webBuildEnv(config)).toEqual({
      VITE_CONTACT_ENDPOINT: '/api/contact',
      VITE_EVENTS_ENDPOINT: '/api/events',
      VITE_RECAPTCHA_SITE_KEY: VALID.recaptchaSiteKey,
      VITE_GA_MEASUREMENT_ID: 'G-AB12CD34EF',
      VITE_SITE_URL: 'https://portfolio.dev',
      VITE_MESSAGE_RETENTION_DAYS: '365',
      VITE_LOG_RETENTION_DAYS: '30',
    });
    // The privacy policy states the archive's retention as configured.
    expect(webBuildEnv(parseConfig({ ...VALID, messageRetentionDays: 30 })).VITE_MESSAGE_RETENTION_DAYS).toBe('30');
  });
});

describe('deployReadinessProblems', () => {
  it('refuses the example addresses and domain that make offline synth work', () => {
    const config = parseConfig({
      ...VALID,
      ownerEmail: 'owner@example.com',
      senderEmail: 'no-reply@mail.example.org',
      domain: { domainName: 'www.example.net', hostedZoneId: 'Z123', hostedZoneName: 'example.net' },
    });
    expect(deployReadinessProblems({ ...config, trial: true })).toEqual([
      expect.stringMatching(/^portfolio\.ownerEmail: /),
      expect.stringMatching(/^portfolio\.senderEmail: /),
      expect.stringMatching(/^portfolio\.domain\.domainName: /),
    ]);
  });

  it('accepts real values, the test site key only for a trial', () => {
    expect(deployReadinessProblems(parseConfig({ ...VALID, trial: true }))).toEqual([]);
    expect(deployReadinessProblems(parseConfig({ ...VALID, recaptchaSiteKey: '6LcOwnKeyOwnKeyOwnKeyOwnKey' }))).toEqual([]);
    expect(deployReadinessProblems(parseConfig(VALID))).toEqual([expect.stringMatching(/^portfolio\.recaptchaSiteKey: /)]);
  });
});

describe('loadConfigFromCdkJson', () => {
  const write = (content: string) => {
    const file = path.join(scratchDir('cdk-json-'), 'cdk.json');
    writeFileSync(file, content);
    return file;
  };

  it('reads the repository cdk.json, whose example values are valid for offline synth', () => {
    const config = loadConfigFromCdkJson();
    expect(config.ownerEmail).toMatch(/@/);
    expect(deployReadinessProblems(config).length).toBeGreaterThan(0);
  });

  it("ships no copy of Google's test keys in cdk.json: the site it builds gets exactly the contract's test key", () => {
    const raw = readFileSync(CDK_JSON_FILE, 'utf8');
    const block = (JSON.parse(raw) as { context: Record<string, Record<string, unknown>> }).context.portfolio!;
    expect(block.recaptchaSiteKey ?? null).toBeNull();
    // No reCAPTCHA-looking key anywhere in the file (Google's keys start with "6L").
    expect(raw).not.toMatch(/6L[\w-]{20,}/);
    expect(webBuildEnv(loadConfigFromCdkJson()).VITE_RECAPTCHA_SITE_KEY).toBe(RECAPTCHA_TEST_SITE_KEY);
  });

  it('names the file when it is not JSON, and the block when it is missing', () => {
    expect(() => loadConfigFromCdkJson(write('{ nope'))).toThrow(/cdk\.json: cannot be read as JSON/);
    expect(() => loadConfigFromCdkJson(write('{"context": {}}'))).toThrow(/portfolio: missing/);
  });

  it('reports bad values inside cdk.json by key', () => {
    const file = write(JSON.stringify({ context: { portfolio: { ...VALID, gaMeasurementId: 'UA-1' } } }));
    expect(() => loadConfigFromCdkJson(file)).toThrow(/portfolio\.gaMeasurementId: "UA-1" is not a GA4 measurement id/);
  });
});
