/**
 * cdk-nag's AWS Solutions checks are wired into the app: an unacknowledged finding fails synth, and
 * every acknowledgement of the portfolio stack is scoped to a resource and carries a specific reason.
 */
import { Stack } from 'aws-cdk-lib';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { describe, expect, it } from 'vitest';
import { addPortfolioStacks } from './portfolio-app';
import { fastApp, fixtureConfig, makeFixtureSite, synthPortfolio } from './testing';

describe('cdk-nag', () => {
  it('fails synth on a finding nobody acknowledged', () => {
    const app = fastApp();
    addPortfolioStacks(app, fixtureConfig(), { account: '123456789012', prebuiltSiteDir: makeFixtureSite() });
    const intruder = new Stack(app, 'Intruder', { env: { account: '123456789012', region: 'eu-west-1' } });
    new s3.Bucket(intruder, 'Careless'); // no SSL enforcement, no logs
    let message = '';
    try {
      app.synth();
    } catch (error) {
      message = String((error as Error).message);
    }
    expect(message).toMatch(/Intruder\/Careless\/Resource[\s\S]*AwsSolutions-S10/);
    expect(message).not.toContain('Portfolio/'); // the portfolio stack itself is clean
  });

  it('acknowledges findings only on specific resources, each with its own reason', () => {
    const { stacks } = synthPortfolio();
    const acknowledgements: { id: string; reason: string; path: string }[] = [];
    for (const construct of stacks.main.node.findAll()) {
      for (const entry of construct.node.metadata) {
        if (entry.type !== 'aws:cdk:acknowledged-rules') continue;
        for (const [id, reason] of Object.entries(entry.data as Record<string, string>)) {
          acknowledgements.push({ id, reason, path: construct.node.path });
        }
      }
    }
    const nag = acknowledgements.filter((a) => a.id.includes('AwsSolutions-'));
    expect(
      nag
        .map((a) => a.id.replace(/^Annotation::/, '').replace(/\[.*$/, ''))
        .filter((v, i, all) => all.indexOf(v) === i)
        .sort(),
    ).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR3',
      'AwsSolutions-CFR4',
      'AwsSolutions-IAM4',
      'AwsSolutions-IAM5',
      'AwsSolutions-L1',
      'AwsSolutions-S1',
      'AwsSolutions-SNS2',
      'AwsSolutions-SQS3',
    ]);
    for (const ack of nag) {
      expect(ack.path, ack.id).not.toBe(stacks.main.node.path); // never stack-wide
      expect(ack.reason.length, ack.id).toBeGreaterThanOrEqual(50);
    }
    // No copy-pasted reasons across different rules.
    const reasons = new Map<string, string>();
    for (const ack of nag) {
      const rule = ack.id.replace(/^.*?(AwsSolutions-[A-Z]+\d+).*$/, '$1');
      const seen = reasons.get(ack.reason);
      if (seen && !seen.startsWith('AwsSolutions-IAM5')) expect(seen).toBe(rule);
      reasons.set(ack.reason, rule);
    }
  });
});
