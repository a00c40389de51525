import { describe, expect, it } from 'vitest';
import { RECAPTCHA_TEST_SECRET } from '../../contract/settings';
import { DEFAULT_RECAPTCHA_VERIFY_URL, loadContactConfig } from './config';

const lambdaEnv = {
  OWNER_EMAIL: 'owner@example.com',
  SENDER_EMAIL: 'site@example.com',
  RECAPTCHA_SECRET_PARAMETER: '/portfolio/recaptcha-secret',
  AWS_REGION: 'eu-west-1',
  AWS_LAMBDA_FUNCTION_NAME: 'contact',
};
const localEnv = {
  OWNER_EMAIL: 'owner@example.com',
  SENDER_EMAIL: 'site@example.com',
  RECAPTCHA_SECRET: RECAPTCHA_TEST_SECRET,
  SES_ENDPOINT: 'http://127.0.0.1:8005',
  RECAPTCHA_VERIFY_URL: 'http://127.0.0.1:9999/siteverify',
};

function problems(env: NodeJS.ProcessEnv): string[] {
  const result = loadContactConfig(env);
  return result.ok ? [] : result.problems;
}

describe('loadContactConfig', () => {
  it('reads the Lambda configuration: the secret comes from SSM, Google verifies', () => {
    expect(loadContactConfig(lambdaEnv)).toEqual({
      ok: true,
      config: {
        ownerEmail: 'owner@example.com',
        senderEmail: 'site@example.com',
        secret: { kind: 'ssm', parameterName: '/portfolio/recaptcha-secret' },
        verifyUrl: DEFAULT_RECAPTCHA_VERIFY_URL,
        region: 'eu-west-1',
      },
    });
  });

  it('reads the local configuration: secret from the environment, SES emulator, a default region', () => {
    const result = loadContactConfig(localEnv);
    expect(result).toMatchObject({
      ok: true,
      config: {
        secret: { kind: 'env', value: localEnv.RECAPTCHA_SECRET },
        sesEndpoint: 'http://127.0.0.1:8005/',
        verifyUrl: 'http://127.0.0.1:9999/siteverify',
        region: 'us-east-1',
      },
    });
  });

  it('prefers the SSM parameter over a secret in the environment', () => {
    const result = loadContactConfig({ ...lambdaEnv, RECAPTCHA_SECRET: 'leaked' });
    expect(result.ok && result.config.secret).toEqual({ kind: 'ssm', parameterName: '/portfolio/recaptcha-secret' });
  });

  it('names every missing variable at once', () => {
    expect(problems({})).toEqual([
      'OWNER_EMAIL is not set',
      'SENDER_EMAIL is not set',
      'RECAPTCHA_SECRET_PARAMETER is not set (the local stack may set RECAPTCHA_SECRET instead)',
      'AWS_REGION is not set',
    ]);
  });

  it.each([
    [{ OWNER_EMAIL: 'not an address' }, 'OWNER_EMAIL is not an email address'],
    [{ SENDER_EMAIL: 'Site <site@example.com>' }, 'SENDER_EMAIL is not an email address'],
    [{ OWNER_EMAIL: 'a@b.com\nBcc: c@d.com' }, 'OWNER_EMAIL is not an email address'],
    [{ RECAPTCHA_SECRET_PARAMETER: 'bad name with spaces' }, 'RECAPTCHA_SECRET_PARAMETER is not a valid SSM parameter name'],
    [{ RECAPTCHA_VERIFY_URL: 'not a url' }, 'RECAPTCHA_VERIFY_URL is not a URL'],
    [
      { RECAPTCHA_VERIFY_URL: 'http://verify.example.com/siteverify' },
      'RECAPTCHA_VERIFY_URL must be an https URL (plain http only on 127.0.0.1 or localhost)',
    ],
    [{ AWS_REGION: 'Ireland' }, 'AWS_REGION is not an AWS region name'],
  ])('refuses a malformed value: %o', (change, problem) => {
    expect(problems({ ...lambdaEnv, ...change })).toEqual([problem]);
  });

  it('refuses a secret in the environment of a real Lambda function', () => {
    const { RECAPTCHA_SECRET_PARAMETER: _unused, ...withoutParameter } = lambdaEnv;
    expect(problems({ ...withoutParameter, RECAPTCHA_SECRET: 'x' })).toEqual([
      'RECAPTCHA_SECRET is for the local stack only; in Lambda set RECAPTCHA_SECRET_PARAMETER',
    ]);
  });

  it('treats blank values as missing', () => {
    expect(problems({ ...lambdaEnv, OWNER_EMAIL: '   ' })).toEqual(['OWNER_EMAIL is not set']);
  });
});
