/** `npm run visitors` shows the deployed API's route breakers above its tables (AWS faked at the SDK boundary). */
import { ApiGatewayV2Client, GetStageCommand } from '@aws-sdk/client-apigatewayv2';
import { CloudFormationClient, DescribeStacksCommand, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand } from '@aws-sdk/client-cloudwatch-logs';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/portfolio-config';
import { visitorsCommand } from './run';

const config = parseConfig({ ownerEmail: 'me@owner-mail.dev', senderEmail: 'portfolio@jane.dev', recaptchaSecretParameter: '/p/s' });
const cfn = mockAwsClient(CloudFormationClient);
const cwl = mockAwsClient(CloudWatchLogsClient);
const apigw = mockAwsClient(ApiGatewayV2Client);
// No output names the API: visitors finds it among the stack's resources.
const outputs = { PageViewsLogGroup: 'vitals-logs' };

beforeEach(() => {
  for (const mock of [cfn, cwl, apigw]) mock.reset();
  cfn.on(DescribeStacksCommand).resolves({
    Stacks: [
      {
        StackName: 'Portfolio',
        CreationTime: new Date(),
        StackStatus: 'UPDATE_COMPLETE',
        Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
      },
    ],
  });
  cfn.on(ListStackResourcesCommand).resolves({
    StackResourceSummaries: [
      {
        LogicalResourceId: 'SiteBucket',
        PhysicalResourceId: 'site-bucket',
        ResourceType: 'AWS::S3::Bucket',
        LastUpdatedTimestamp: new Date(),
        ResourceStatus: 'CREATE_COMPLETE',
      },
      {
        LogicalResourceId: 'ApiHttpApi',
        PhysicalResourceId: 'abc123def4',
        ResourceType: 'AWS::ApiGatewayV2::Api',
        LastUpdatedTimestamp: new Date(),
        ResourceStatus: 'CREATE_COMPLETE',
      },
    ],
  });
  cwl.on(StartQueryCommand).resolves({ queryId: 'q' });
  cwl.on(GetQueryResultsCommand).resolves({
    status: 'Complete',
    results: [
      [
        { field: 'day', value: '2026-11-28 00:00:00.000' },
        { field: 'route', value: '/home' },
        { field: 'views', value: '4' },
      ],
    ],
  });
});

async function visitors(): Promise<string> {
  const out: string[] = [];
  await visitorsCommand([], {
    stdout: (t) => out.push(t),
    env: {},
    now: () => new Date('2026-11-28T12:00:00Z'),
    config,
    cloudFormation: () => new CloudFormationClient({ region: 'us-east-1' }),
    logs: () => new CloudWatchLogsClient({ region: 'us-east-1' }),
    apiGateway: () => new ApiGatewayV2Client({ region: 'us-east-1' }),
    sleep: () => Promise.resolve(),
  });
  return out.join('\n');
}

describe('route breakers in npm run visitors', () => {
  it("says a tripped vitals route drops beacons until midnight UTC, reading the stack's API stage", async () => {
    apigw.on(GetStageCommand, { ApiId: 'abc123def4', StageName: '$default' }).resolves({
      RouteSettings: {
        'POST /api/contact': { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
        'POST /api/vitals': { ThrottlingRateLimit: 0, ThrottlingBurstLimit: 0 },
      },
    });
    const text = await visitors();
    expect(text.split('\n')[0]).toBe('Route breakers: tripped until 2026-11-29T00:00:00Z: vitals (beacons dropped)');
    expect(text).toContain('Page views in the last 7 days: 4');
  });

  it('says so when none is tripped', async () => {
    apigw.on(GetStageCommand).resolves({ RouteSettings: { 'POST /api/vitals': { ThrottlingRateLimit: 10, ThrottlingBurstLimit: 100 } } });
    expect((await visitors()).split('\n')[0]).toBe('Route breakers: no route breaker tripped today (UTC)');
  });
});
