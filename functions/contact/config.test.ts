import { DEFAULT_CAPTCHA_MONTHLY_BUDGET } from '../../contract/limits';
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
        retentionDays: 365,
        captchaMonthlyBudget: DEFAULT_CAPTCHA_MONTHLY_BUDGET,
      },
    });
  });

  it('reads the monthly siteverify budget', () => {
    const result = loadContactConfig({ ...lambdaEnv, CAPTCHA_MONTHLY_BUDGET: '500' });
    expect(result).toMatchObject({ ok: true, config: { captchaMonthlyBudget: 500 } });
    expect(problems({ ...lambdaEnv, CAPTCHA_MONTHLY_BUDGET: '0' })).toEqual([
      'CAPTCHA_MONTHLY_BUDGET must be a whole number of siteverify calls, at least 1',
    ]);
  });

  it('reads the archive settings: table, retention, configuration set, a local DynamoDB endpoint', () => {
    const result = loadContactConfig({
      ...lambdaEnv,
      ARCHIVE_TABLE: 'portfolio-messages',
      MESSAGE_RETENTION_DAYS: '30',
      SES_CONFIGURATION_SET: 'portfolio-mail',
      AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8006',
    });
    expect(result).toMatchObject({
      ok: true,
      config: {
        archiveTable: 'portfolio-messages',
        retentionDays: 30,
        configurationSet: 'portfolio-mail',
        archiveEndpoint: 'http://127.0.0.1:8006/',
      },
    });
  });

  it('names bad archive settings', () => {
    expect(problems({ ...lambdaEnv, ARCHIVE_TABLE: 'ab', MESSAGE_RETENTION_DAYS: '0', SES_CONFIGURATION_SET: 'has space' })).toEqual([
      'ARCHIVE_TABLE is not a DynamoDB table name',
      'MESSAGE_RETENTION_DAYS must be a whole number of days, at least 1',
      'SES_CONFIGURATION_SET is not an SES configuration set name',
    ]);
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
