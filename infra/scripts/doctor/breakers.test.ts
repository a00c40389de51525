/** The doctor's route-breaker row, through the real API Gateway V2 and CloudFormation clients against the fake AWS. */
import { describePlanMonths } from '../../../contract/cost-model';
import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig, previewCloudFrontPlanOf } from '../../config/portfolio-config';
import { startFakeAws, type FakeAws } from '../../../tools/fake-aws';
import { checkBreakers } from './breakers';

let aws: FakeAws;
let cfn: CloudFormationClient;
let apigw: ApiGatewayV2Client;
const config = parseConfig({ ownerEmail: 'jane@owner-mail.dev', senderEmail: 'hello@jane.dev', recaptchaSecretParameter: '/p/s' });
const now = new Date('2026-11-29T15:00:00Z');
const hook = (name: string, query = '') => fetch(`${aws.url}/__hooks/${name}?${query}`, { method: 'POST' });

beforeAll(async () => {
  aws = await startFakeAws();
  const options = { region: 'us-east-1', endpoint: aws.url, credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'fake' } };
  cfn = new CloudFormationClient(options);
  apigw = new ApiGatewayV2Client(options);
});
afterAll(async () => {
  cfn.destroy();
  apigw.destroy();
  await aws.stop();
});

describe('the route breakers row', () => {
  it('is absent before the first deploy', async () => {
    expect(await checkBreakers(cfn, apigw, config, now)).toBeUndefined();
  });

  it('passes with the day numbers while no route is tripped', async () => {
    await hook('deploy', 'stack=Portfolio');
    expect(await checkBreakers(cfn, apigw, config, now)).toEqual({
      check: 'Route breakers',
      status: 'pass',
      detail:
        `no route breaker tripped today (UTC) (counted a day: contact ${config.circuitBreaker.contact}, events ${config.circuitBreaker.events}, ` +
        `vitals ${config.circuitBreaker.vitals}, from $${config.monthlyBudgetUsd} a month; ${describePlanMonths(config.cloudFrontPlan, config.monthlyBudgetUsd, previewCloudFrontPlanOf(config))})`,
    });
  });

  it('warns naming a tripped route, what visitors meet, and until when', async () => {
    await hook('route-throttle', `routeKey=${encodeURIComponent('POST /api/vitals')}&rate=0&burst=0`);
    await hook('route-throttle', `routeKey=${encodeURIComponent('POST /api/contact')}&rate=0.1&burst=1`);
    const row = await checkBreakers(cfn, apigw, config, now);
    expect(row).toMatchObject({
      status: 'warn',
      detail:
        "tripped until 2026-11-30T00:00:00Z: contact (a trickle: most senders see the form's failure message), vitals (beacons dropped)",
    });
    expect(row?.fix).toMatch(/monthlyBudgetUsd, or circuitBreaker, in cdk\.json/);
  });

  it('warns naming apigateway:GET when the credentials may not read the stage', async () => {
    aws.state.denied.push('apigateway:GET');
    const row = await checkBreakers(cfn, apigw, config, now);
    aws.state.denied.pop();
    expect(row).toMatchObject({ status: 'warn', fix: expect.stringContaining('apigateway:GET') });
  });
});
