import { CloudFormationClient, DescribeStacksCommand } from '@aws-sdk/client-cloudformation';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { awsClient, explainAwsProblem, isNoCredentials, isStackMissing } from './aws';
import { stackOutputs } from './stack-outputs';

const awsError = (name: string, message: string) => Object.assign(new Error(message), { name });

describe('awsClient', () => {
  afterEach(() => vi.unstubAllEnvs());

  it("every client retries as the SDK's standard mode does: three attempts, unless the owner sets AWS_MAX_ATTEMPTS", async () => {
    vi.stubEnv('AWS_MAX_ATTEMPTS', undefined as unknown as string);
    const client = awsClient(CloudFormationClient, { region: 'eu-west-1' });
    expect(await client.config.region()).toBe('eu-west-1');
    expect(await client.config.maxAttempts()).toBe(3);
    vi.stubEnv('AWS_MAX_ATTEMPTS', '1');
    expect(await awsClient(CloudFormationClient, { region: 'eu-west-1' }).config.maxAttempts()).toBe(1);
  });
});

describe('the error checks', () => {
  it("recognise CloudFormation's unknown stack, and only that", () => {
    expect(isStackMissing(awsError('ValidationError', 'Stack with id Portfolio does not exist'))).toBe(true);
    expect(isStackMissing(awsError('ValidationError', 'Template format error'))).toBe(false);
    expect(isStackMissing(awsError('AccessDenied', 'does not exist'))).toBe(false);
  });

  it('recognise missing credentials', () => {
    expect(isNoCredentials(awsError('CredentialsProviderError', 'x'))).toBe(true);
    expect(isNoCredentials(new Error('Could not load credentials from any providers'))).toBe(true);
    expect(isNoCredentials(awsError('ExpiredToken', 'x'))).toBe(false);
  });
});

describe('stackOutputs', () => {
  const cfn = mockAwsClient(CloudFormationClient);
  afterEach(() => cfn.reset());

  it('gives the outputs by their STACK_OUTPUT_KEYS names, undefined for a stack that does not exist', async () => {
    cfn.on(DescribeStacksCommand, { StackName: 'Portfolio' }).resolves({
      Stacks: [
        {
          StackName: 'Portfolio',
          StackStatus: 'CREATE_COMPLETE',
          CreationTime: new Date(),
          Outputs: [{ OutputKey: 'SiteBucketName', OutputValue: 'b' }],
        },
      ],
    });
    expect((await stackOutputs('Portfolio', 'eu-west-1'))?.[STACK_OUTPUT_KEYS.siteBucket]).toBe('b');
    cfn.on(DescribeStacksCommand, { StackName: 'Gone' }).rejects(awsError('ValidationError', 'Stack with id Gone does not exist'));
    expect(await stackOutputs('Gone', 'eu-west-1')).toBeUndefined();
    cfn.on(DescribeStacksCommand, { StackName: 'Denied' }).rejects(awsError('AccessDenied', 'no'));
    await expect(stackOutputs('Denied', 'eu-west-1')).rejects.toThrow('no');
  });
});

describe('explainAwsProblem', () => {
  const wording = { local: 'For the local copy: npm run x -- --local', notFound: 'The log group does not exist yet.' };

  it("names the fix for missing credentials, then the command's local alternative", () => {
    expect(explainAwsProblem(awsError('CredentialsProviderError', 'Could not load credentials from any providers'), wording)).toBe(
      'No AWS credentials found: run `aws configure` (access key) or `aws configure sso` and `export AWS_PROFILE=<profile>`. For the local copy: npm run x -- --local',
    );
  });

  it('says what a missing resource means for the command, only when it has words for it', () => {
    const missing = awsError('ResourceNotFoundException', 'not found');
    expect(explainAwsProblem(missing, wording)).toBe('The log group does not exist yet.');
    expect(explainAwsProblem(missing, { local: wording.local })).toBeUndefined();
  });

  it.each(['AccessDeniedException', 'UnrecognizedClientException', 'ExpiredTokenException', 'InvalidClientTokenId'])(
    'names a refusal (%s) and the credentials to use',
    (name) => {
      expect(explainAwsProblem(awsError(name, 'no'), wording)).toBe(
        `AWS refused the request (${name}): use the credentials you deploy with (AWS_PROFILE).`,
      );
    },
  );

  it('leaves an unexpected error unexplained', () => {
    expect(explainAwsProblem(awsError('ThrottlingException', 'slow down'), wording)).toBeUndefined();
    expect(explainAwsProblem(new Error('boom'), wording)).toBeUndefined();
  });
});
