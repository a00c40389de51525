/**
 * Pull-request previews next to the live site: the live stack and three previews synthesized together.
 * Previews are cheap (no cache policy of their own, no e-mail, only the alarms a pull request can set
 * off, the archive deleted with them), never reference the live reCAPTCHA secret, and the live site
 * plus the most previews the workflow allows stays within every per-account CloudFront quota.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../config/portfolio-config';
import {
  CLOUDFRONT_ACCOUNT_QUOTAS,
  PREVIEW_LIMIT,
  PREVIEW_QUOTA_HEADROOM,
  previewLimit,
  previewStage,
} from '../config/previews';
import { RECAPTCHA_TEST_SECRET } from '../../contract/settings';
import { PREVIEW_ALARMS } from './monitoring';
import { fixtureConfig, type Json, synthPortfolio, type Synthesized } from './testing';

const LIVE_SECRET = '/portfolio/recaptcha-secret';
const OWN_SITE_KEY = '6LcOwnKeyOwnKeyOwnKeyOwnKey';
// "Use managed cache policies", CachingOptimized: https://docs.aws.amazon.com/AmazonCloudFront/latest/DeveloperGuide/using-managed-cache-policies.html
const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';

let live: Synthesized;
let previews: Synthesized[];

const count = (synth: Synthesized, type: string) => Object.keys(synth.template.findResources(type)).length;
const resourcesOf = (synth: Synthesized, type: string): Json[] => Object.values(synth.template.findResources(type));

beforeAll(() => {
  // The owner's real key pair, as a live site has it; previews take Google's test key by default.
  const block = { recaptchaSiteKey: OWN_SITE_KEY, recaptchaSecretParameter: LIVE_SECRET };
  live = synthPortfolio(fixtureConfig(block));
  previews = [1, 2, 3].map((n) => synthPortfolio(fixtureConfig({ ...block, stage: previewStage(n) })));
}, 120_000);

describe('the live site and three previews', () => {
  it('are four stacks', () => {
    expect([live, ...previews].map((s) => s.stacks.main.stackName)).toEqual([
      'Portfolio',
      'Portfolio-pr-1',
      'Portfolio-pr-2',
      'Portfolio-pr-3',
    ]);
  });

  it('create cache policies only in the live stack; each preview uses the managed CachingOptimized', () => {
    expect(count(live, 'AWS::CloudFront::CachePolicy')).toBe(2);
    for (const preview of previews) {
      expect(count(preview, 'AWS::CloudFront::CachePolicy')).toBe(0);
      const config = resourcesOf(preview, 'AWS::CloudFront::Distribution')[0]!.Properties.DistributionConfig;
      expect(config.DefaultCacheBehavior.CachePolicyId).toBe(CACHING_OPTIMIZED);
      const assets = config.CacheBehaviors.find((b: Json) => b.PathPattern === 'assets/*');
      expect(assets.CachePolicyId).toBe(CACHING_OPTIMIZED);
    }
  });

  it('give each preview its own response headers policy (its CSP is its own build\'s)', () => {
    for (const synth of [live, ...previews]) expect(count(synth, 'AWS::CloudFront::ResponseHeadersPolicy')).toBe(1);
  });

  it.each(Object.entries(CLOUDFRONT_ACCOUNT_QUOTAS))(
    'stay within the account quota of %s (%i) with the live site and the most previews the workflow allows',
    (type, quota) => {
      const perPreview = Math.max(...previews.map((p) => count(p, type)));
      const total = count(live, type) + PREVIEW_LIMIT.max * perPreview;
      expect(total + PREVIEW_QUOTA_HEADROOM, `${count(live, type)} live + ${PREVIEW_LIMIT.max} × ${perPreview}`).toBeLessThanOrEqual(quota);
      // And the counts really add up: three previews hold three times one preview's share.
      const three = previews.reduce((sum, p) => sum + count(p, type), 0);
      expect(three).toBe(3 * perPreview);
    },
  );
});

describe('a preview', () => {
  it("never references the live reCAPTCHA secret: it reads Google's public test secret from a parameter of its own", () => {
    expect(JSON.stringify(live.template.toJSON())).toContain(LIVE_SECRET);
    for (const preview of previews) {
      const json = JSON.stringify(preview.template.toJSON());
      expect(json).not.toContain(LIVE_SECRET);
      const parameters = resourcesOf(preview, 'AWS::SSM::Parameter');
      expect(parameters).toHaveLength(1);
      expect(parameters[0]!.Properties).toMatchObject({ Type: 'String', Value: RECAPTCHA_TEST_SECRET });
      expect(parameters[0]!.Properties.Name).toBeUndefined(); // named by CloudFormation: no clash between previews
      const [parameterId] = Object.keys(preview.template.findResources('AWS::SSM::Parameter'));
      const contact = resourcesOf(preview, 'AWS::Lambda::Function').find((f) => f.Properties.Environment?.Variables?.RECAPTCHA_SECRET_PARAMETER);
      expect(contact!.Properties.Environment.Variables.RECAPTCHA_SECRET_PARAMETER).toEqual({ Ref: parameterId });
    }
    // The live site with its own key holds no test secret.
    expect(count(live, 'AWS::SSM::Parameter')).toBe(0);
    expect(JSON.stringify(live.template.toJSON())).not.toContain(RECAPTCHA_TEST_SECRET);
  });

  it('deletes its archive with the stack; the live one is kept and protected', () => {
    const [liveTable] = resourcesOf(live, 'AWS::DynamoDB::Table');
    expect(liveTable).toMatchObject({ DeletionPolicy: 'Retain', Properties: { DeletionProtectionEnabled: true } });
    for (const preview of previews) {
      const [table] = resourcesOf(preview, 'AWS::DynamoDB::Table');
      expect(table!.DeletionPolicy).toBe('Delete');
      expect(table!.Properties.DeletionProtectionEnabled).toBe(false);
    }
  });

  it('subscribes no one (no confirmation mail per pull request); the live site mails the owner', () => {
    expect(resourcesOf(live, 'AWS::SNS::Subscription')).toEqual([
      expect.objectContaining({ Properties: expect.objectContaining({ Protocol: 'email', Endpoint: 'owner@portfolio.dev' }) }),
    ]);
    for (const preview of previews) expect(count(preview, 'AWS::SNS::Subscription')).toBe(0);
  });

  it('has no origin secret: its functions are told so explicitly, the live stack never is', () => {
    for (const preview of previews) {
      expect(resourcesOf(preview, 'AWS::SecretsManager::Secret')).toEqual([]);
      expect(resourcesOf(preview, 'AWS::CloudFront::KeyValueStore')).toEqual([]);
      const variables = resourcesOf(preview, 'AWS::Lambda::Function').map((fn) => fn.Properties.Environment?.Variables ?? {});
      expect(variables.filter((v) => v.ORIGIN_CHECK === 'off')).toHaveLength(3);
      expect(variables.some((v) => 'ORIGIN_SECRET_ARN' in v)).toBe(false);
    }
    expect(JSON.stringify(live.template.toJSON())).not.toContain('"ORIGIN_CHECK"');
  });

  it('keeps only the alarms its own code can set off', () => {
    const names = (synth: Synthesized) =>
      Object.keys(synth.template.findResources('AWS::CloudWatch::Alarm'))
        .map((id) => id.replace(/^Monitoring/, '').replace(/[0-9A-F]{8}$/, ''))
        .sort();
    expect(names(live)).toHaveLength(12);
    for (const preview of previews) expect(names(preview)).toEqual([...PREVIEW_ALARMS].sort());
  });

  it("docs/deploy.md prices a preview's alarms by the metrics they read ($0.10 each a month, the free 10 taken by the live site)", () => {
    const alarms = resourcesOf(previews[0]!, 'AWS::CloudWatch::Alarm').map((a) => a.Properties);
    const metrics = alarms.reduce((sum, a) => sum + (a.Metrics ? (a.Metrics as Json[]).filter((m) => m.MetricStat).length : 1), 0);
    const docs = readFileSync(path.join(REPO_ROOT, 'docs/deploy.md'), 'utf8').replace(/\s+/g, ' ');
    expect(docs).toContain(`its four alarms, which read ${metrics} alarm metrics`);
    expect(docs).toContain(`about $${(metrics * 0.1).toFixed(2)} a month per preview`);
  });
});

describe('previewLimit (the PREVIEW_LIMIT repository variable)', () => {
  it('defaults to 3 and takes 0 (previews off) up to the maximum', () => {
    expect(previewLimit(undefined)).toBe(3);
    expect(previewLimit(' ')).toBe(3);
    expect(previewLimit('0')).toBe(0);
    expect(previewLimit(String(PREVIEW_LIMIT.max))).toBe(PREVIEW_LIMIT.max);
  });

  it.each(['11', '-1', 'three', '2.5'])('refuses %j, naming the range and why', (value) => {
    expect(() => previewLimit(value)).toThrow(/PREVIEW_LIMIT is ".*": a whole number from 0 \(previews off\) to 10 .*response headers policy/);
  });
});
