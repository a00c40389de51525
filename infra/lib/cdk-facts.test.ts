/**
 * Facts the project copies from AWS and the CDK, checked offline against what aws-cdk-lib itself
 * knows (it is generated from AWS's specifications): a CDK upgrade that changes one fails here.
 */
import { readFileSync } from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import * as cxapi from 'aws-cdk-lib/cx-api';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import * as logs from 'aws-cdk-lib/aws-logs';
import { describe, expect, it } from 'vitest';
import { CDK_JSON_FILE, LOG_RETENTION_DAYS } from '../config/portfolio-config';
import { MIN_BOOTSTRAP_VERSION } from '../scripts/doctor/checks';
import { fastApp } from './testing';

describe('CDK and AWS facts, against aws-cdk-lib', () => {
  it('the doctor asks for the bootstrap version the synthesized templates require', () => {
    const app = fastApp();
    new Stack(app, 'Probe');
    const template = app.synth().getStackByName('Probe').template as {
      Rules: { CheckBootstrapVersion: { Assertions: { Assert: { 'Fn::Not': [{ 'Fn::Contains': [string[], unknown] }] } }[] } };
    };
    // The rule refuses the versions it lists: the oldest accepted one is the next.
    const refused = template.Rules.CheckBootstrapVersion.Assertions[0]!.Assert['Fn::Not'][0]['Fn::Contains'][0].map(Number);
    expect(Math.max(...refused) + 1).toBe(MIN_BOOTSTRAP_VERSION);
  });

  it('the log retention values are the ones CloudWatch Logs accepts (all but "never expire")', () => {
    const cdkValues = Object.values(logs.RetentionDays)
      .filter((v): v is number => typeof v === 'number' && v !== logs.RetentionDays.INFINITE)
      .sort((a, b) => a - b);
    expect([...LOG_RETENTION_DAYS]).toEqual(cdkValues);
  });

  it('every feature flag cdk.json pins is one aws-cdk-lib knows (a misspelt flag silently does nothing)', () => {
    const context = (JSON.parse(readFileSync(CDK_JSON_FILE, 'utf8')) as { context: Record<string, unknown> }).context;
    const flags = Object.keys(context).filter((key) => key.startsWith('@aws-cdk'));
    expect(flags.length).toBeGreaterThan(0);
    expect(flags.filter((flag) => !(flag in cxapi.FLAGS))).toEqual([]);
  });

  it('the functions run on nodejs24.x, a runtime aws-cdk-lib lists', () => {
    expect((lambda.Runtime as { NODEJS_24_X?: lambda.Runtime }).NODEJS_24_X?.name).toBe('nodejs24.x');
  });
});
