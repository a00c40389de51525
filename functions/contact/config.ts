/**
 * The contact function's environment, read and checked once per cold start with one zod schema.
 * Problems are collected (all of them, each naming its variable) instead of thrown, so a
 * misconfigured function still answers: 4xx for bad input, 503 for everything else, and logs
 * what is missing once.
 */
import { z } from 'zod';
import { DEFAULT_MESSAGE_RETENTION_DAYS } from '../../contract/archive';
import { DEFAULT_CAPTCHA_MONTHLY_BUDGET } from '../../contract/limits';
import { AWS_REGION_PATTERN, MAILBOX_ADDRESS_PATTERN } from '../../contract/settings';

/**
 * Google's siteverify (POST secret, response, optional remoteip). Source: reCAPTCHA, "Verifying the
 * user's response": https://developers.google.com/recaptcha/docs/verify
 */
export const DEFAULT_RECAPTCHA_VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
/** Region of the local stack, where SES is an emulator and any region will do. */
const LOCAL_REGION = 'us-east-1';

export type SecretSource = { kind: 'ssm'; parameterName: string } | { kind: 'env'; value: string };

export interface ContactConfig {
  ownerEmail: string;
  senderEmail: string;
  secret: SecretSource;
  verifyUrl: string;
  region: string;
  /** Set only for the local stack (aws-ses-v2-local). */
  sesEndpoint?: string;
  /** The archive's table (ARCHIVE_TABLE); without one, messages are mailed only, as before the archive. */
  archiveTable?: string;
  /** A DynamoDB-compatible server (AWS_ENDPOINT_URL_DYNAMODB), for the local stack. */
  archiveEndpoint?: string;
  /** Days a message is kept (MESSAGE_RETENTION_DAYS). */
  retentionDays: number;
  /** SES configuration set named on every send (SES_CONFIGURATION_SET). */
  configurationSet?: string;

  /** siteverify calls allowed a month (CAPTCHA_MONTHLY_BUDGET), counted in the archive's table. */
  captchaMonthlyBudget: number;
}

export type ConfigResult = { ok: true; config: ContactConfig } | { ok: false; problems: string[] };

/** SSM parameter names (or ARNs): letters, digits and . - _ / : only. */
const PARAMETER_NAME = /^[A-Za-z0-9_.\-/:]{1,2048}$/;
/** DynamoDB table names: 3 to 255 of letters, digits, `_`, `-` and `.` (DynamoDB Developer Guide, naming rules). */
const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
/** SES configuration set names: letters, digits, `_` and `-`, at most 64 (SES API Reference, ConfigurationSet). */
const CONFIGURATION_SET_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** A trimmed value; blank counts as unset. */
const text = z.preprocess((value) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined), z.string().optional());

const address = (name: string) =>
  text.refine((value) => value === undefined || MAILBOX_ADDRESS_PATTERN.test(value), `${name} is not an email address`);

/** https anywhere; plain http only on loopback unless allowHttpAnywhere (the local SES emulator). */
function urlProblem(name: string, value: string, allowHttpAnywhere: boolean): string | undefined {
  const url = URL.parse(value);
  if (!url) return `${name} is not a URL`;
  const isHttps = url.protocol === 'https:';
  const isAllowedHttp = url.protocol === 'http:' && (allowHttpAnywhere || LOOPBACK_HOSTS.has(url.hostname));
  return isHttps || isAllowedHttp ? undefined : `${name} must be an https URL (plain http only on 127.0.0.1 or localhost)`;
}

const url = (name: string, allowHttpAnywhere: boolean) =>
  text.superRefine((value, ctx) => {
    const problem = value === undefined ? undefined : urlProblem(name, value, allowHttpAnywhere);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const regionName = (name: string) =>
  text.refine((value) => value === undefined || AWS_REGION_PATTERN.test(value), `${name} is not an AWS region name`);

const ContactEnv = z
  .object({
    OWNER_EMAIL: address('OWNER_EMAIL'),
    SENDER_EMAIL: address('SENDER_EMAIL'),
    // The SSM parameter wins: in Lambda the secret must never sit in the environment.
    RECAPTCHA_SECRET_PARAMETER: text.refine(
      (value) => value === undefined || PARAMETER_NAME.test(value),
      'RECAPTCHA_SECRET_PARAMETER is not a valid SSM parameter name',
    ),
    RECAPTCHA_SECRET: text,
    AWS_LAMBDA_FUNCTION_NAME: text,
    RECAPTCHA_VERIFY_URL: url('RECAPTCHA_VERIFY_URL', false),
    SES_ENDPOINT: url('SES_ENDPOINT', true),
    AWS_REGION: regionName('AWS_REGION'),
    AWS_DEFAULT_REGION: regionName('AWS_REGION'),
    ARCHIVE_TABLE: text.refine((value) => value === undefined || TABLE_NAME.test(value), 'ARCHIVE_TABLE is not a DynamoDB table name'),
    AWS_ENDPOINT_URL_DYNAMODB: url('AWS_ENDPOINT_URL_DYNAMODB', true),
    MESSAGE_RETENTION_DAYS: text.refine(
      (value) => value === undefined || (/^\d{1,5}$/.test(value) && Number(value) >= 1),
      'MESSAGE_RETENTION_DAYS must be a whole number of days, at least 1',
    ),
    SES_CONFIGURATION_SET: text.refine(
      (value) => value === undefined || CONFIGURATION_SET_NAME.test(value),
      'SES_CONFIGURATION_SET is not an SES configuration set name',
    ),
    CAPTCHA_MONTHLY_BUDGET: text.refine(
      (value) => value === undefined || (/^\d{1,9}$/.test(value) && Number(value) >= 1),
      'CAPTCHA_MONTHLY_BUDGET must be a whole number of siteverify calls, at least 1',
    ),
  })
  .superRefine(
    (env, ctx) => {
      // What depends on more than one variable; runs even when a single value was malformed,
      // so every problem is reported at once.
      const missing = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
      if (env.OWNER_EMAIL === undefined) missing('OWNER_EMAIL', 'OWNER_EMAIL is not set');
      if (env.SENDER_EMAIL === undefined) missing('SENDER_EMAIL', 'SENDER_EMAIL is not set');
      if (env.RECAPTCHA_SECRET_PARAMETER === undefined) {
        if (env.RECAPTCHA_SECRET === undefined) {
          missing('RECAPTCHA_SECRET_PARAMETER', 'RECAPTCHA_SECRET_PARAMETER is not set (the local stack may set RECAPTCHA_SECRET instead)');
        } else if (env.AWS_LAMBDA_FUNCTION_NAME !== undefined) {
          missing('RECAPTCHA_SECRET', 'RECAPTCHA_SECRET is for the local stack only; in Lambda set RECAPTCHA_SECRET_PARAMETER');
        }
      }
      if (env.AWS_REGION === undefined && env.AWS_DEFAULT_REGION === undefined && env.SES_ENDPOINT === undefined) {
        missing('AWS_REGION', 'AWS_REGION is not set');
      }
    },
    { when: () => true },
  );

/** The order problems are reported in: the order of the schema's keys. */
const KEY_ORDER = Object.keys(ContactEnv.shape);
const rank = (path: readonly PropertyKey[]) => {
  const index = KEY_ORDER.indexOf(String(path[0]));
  return index === -1 ? KEY_ORDER.length : index;
};

export function loadContactConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const parsed = ContactEnv.safeParse(env);
  if (!parsed.success) {
    const issues = [...parsed.error.issues].sort((a, b) => rank(a.path) - rank(b.path));
    return { ok: false, problems: issues.map((issue) => issue.message) };
  }
  const e = parsed.data;
  // The superRefine above guarantees these; the checks only narrow the types.
  if (!e.OWNER_EMAIL || !e.SENDER_EMAIL) return { ok: false, problems: ['OWNER_EMAIL or SENDER_EMAIL is not set'] };
  const secret: SecretSource = e.RECAPTCHA_SECRET_PARAMETER
    ? { kind: 'ssm', parameterName: e.RECAPTCHA_SECRET_PARAMETER }
    : { kind: 'env', value: e.RECAPTCHA_SECRET ?? '' };
  const region = e.AWS_REGION ?? e.AWS_DEFAULT_REGION ?? LOCAL_REGION;
  const verifyUrl = new URL(e.RECAPTCHA_VERIFY_URL ?? DEFAULT_RECAPTCHA_VERIFY_URL).toString();
  return {
    ok: true,
    config: {
      ownerEmail: e.OWNER_EMAIL,
      senderEmail: e.SENDER_EMAIL,
      secret,
      verifyUrl,
      region,
      ...(e.SES_ENDPOINT ? { sesEndpoint: new URL(e.SES_ENDPOINT).toString() } : {}),
      ...(e.ARCHIVE_TABLE ? { archiveTable: e.ARCHIVE_TABLE } : {}),
      ...(e.AWS_ENDPOINT_URL_DYNAMODB ? { archiveEndpoint: new URL(e.AWS_ENDPOINT_URL_DYNAMODB).toString() } : {}),
      retentionDays: e.MESSAGE_RETENTION_DAYS ? Number(e.MESSAGE_RETENTION_DAYS) : DEFAULT_MESSAGE_RETENTION_DAYS,
      ...(e.SES_CONFIGURATION_SET ? { configurationSet: e.SES_CONFIGURATION_SET } : {}),
      captchaMonthlyBudget: e.CAPTCHA_MONTHLY_BUDGET ? Number(e.CAPTCHA_MONTHLY_BUDGET) : DEFAULT_CAPTCHA_MONTHLY_BUDGET,
    },
  };
}
