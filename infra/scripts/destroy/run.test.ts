/** `npm run destroy`'s command line and its first question to AWS, with CloudFormation faked at its boundary. */
import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockClient } from 'aws-sdk-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { UsageError } from '../kit/command';
import { runDestroy } from './run';

const cfn = mockClient(CloudFormationClient);
afterEach(() => {
  cfn.reset();
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
    cfn.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id Portfolio-pr-7 does not exist'), { name: 'ValidationError' }));
    expect(await runDestroy(['--stage', 'pr-7', '--force'])).toBe(0);
    expect(cfn.commandCalls(DescribeStacksCommand)[0]!.args[0].input).toEqual({ StackName: 'Portfolio-pr-7' });
    expect(lines).toEqual([expect.stringMatching(/^No stack Portfolio-pr-7 in [a-z0-9-]+: nothing to destroy\.$/)]);
  });
});
