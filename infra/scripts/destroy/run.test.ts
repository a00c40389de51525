/** `npm run destroy`'s command line and its first question to AWS, with CloudFormation faked at its boundary. */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { DeleteBucketCommand, ListObjectVersionsCommand, S3Client } from '@aws-sdk/client-s3';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../kit/command';
import { runDestroy } from './run';

const cfn = mockAwsClient(CloudFormationClient);
const s3 = mockAwsClient(S3Client);
afterEach(() => {
  cfn.reset();
  s3.reset();
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

describe('runDestroy', () => {
  it('removes nothing without a named target: a stage, or --live for the live site', async () => {
    await expect(runDestroy([])).rejects.toThrow(UsageError);
    await expect(runDestroy(['--force'])).rejects.toThrow(/needs --stage NAME or --live/);
    expect(cfn.calls()).toHaveLength(0);
  });

  it('a stage that was never deployed: says so and is done, without running cdk destroy', async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((text: string) => void lines.push(text));
    cfn
      .on(DescribeStacksCommand)
      .rejects(Object.assign(new Error('Stack with id Portfolio-pr-7 does not exist'), { name: 'ValidationError' }));
    expect(await runDestroy(['--stage', 'pr-7', '--force'])).toBe(0);
    expect(cfn.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({ StackName: 'Portfolio-pr-7' });
    expect(lines).toEqual([expect.stringMatching(/^No stack Portfolio-pr-7 in [a-z0-9-]+: nothing to destroy\.$/)]);
  });

  it("--live: after cdk destroy, empties and deletes the site bucket and the previews' bucket", async () => {
    const lines: string[] = [];
    vi.spyOn(console, 'error').mockImplementation((text: string) => void lines.push(text));
    vi.stubEnv('PORTFOLIO_CDK_CLI', 'true'); // cdk destroy "succeeds" without running anything
    const outputs = [
      { OutputKey: 'SiteBucketName', OutputValue: 'portfolio-sitebucket-1' },
      { OutputKey: 'PreviewBucketName', OutputValue: 'portfolio-previews-123456789012-eu-west-1' },
    ];
    cfn
      .on(DescribeStacksCommand)
      .resolvesOnce({ Stacks: [{ StackName: 'Portfolio', StackStatus: 'UPDATE_COMPLETE', CreationTime: new Date(), Outputs: outputs }] })
      .rejects(Object.assign(new Error('Stack with id Portfolio does not exist'), { name: 'ValidationError' }));
    s3.on(ListObjectVersionsCommand).resolves({ Versions: [], IsTruncated: false });
    s3.on(DeleteBucketCommand).resolves({});
    expect(await runDestroy(['--live', '--force'])).toBe(0);
    expect(s3.commandCalls(DeleteBucketCommand).map((c) => c.args[0].input.Bucket)).toEqual([
      'portfolio-sitebucket-1',
      'portfolio-previews-123456789012-eu-west-1',
    ]);
    expect(lines).toContainEqual('Deleted the preview bucket portfolio-previews-123456789012-eu-west-1 (0 objects).');
  });
});
