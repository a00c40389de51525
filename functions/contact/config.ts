/**
 * The contact function's environment, read and checked once per cold start. Problems are
 * collected (all of them, by variable name) instead of thrown, so a misconfigured function still
 * answers: 4xx for bad input, 503 for everything else, and logs what is missing once.
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
}

export type ConfigResult = { ok: true; config: ContactConfig } | { ok: false; problems: string[] };

/** A bare address, as SES wants it for Source and ToAddresses: nothing that could split a header. */
const ADDRESS = /^[^\s@<>()",;:\\[\]]+@[^\s@<>()",;:\\[\]]+\.[A-Za-z0-9-]{2,}$/;
/** SSM parameter names (or ARNs): letters, digits and . - _ / : only. */
const PARAMETER_NAME = /^[A-Za-z0-9_.\-/:]{1,2048}$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

function read(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const value = env[name]?.trim();
  return value ? value : undefined;
}

function checkUrl(name: string, value: string, problems: string[], allowHttpAnywhere: boolean): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    problems.push(`${name} is not a URL`);
    return undefined;
  }
  const isHttps = url.protocol === 'https:';
  const isAllowedHttp = url.protocol === 'http:' && (allowHttpAnywhere || LOOPBACK_HOSTS.has(url.hostname));
  if (!isHttps && !isAllowedHttp) {
    problems.push(`${name} must be an https URL (plain http only on 127.0.0.1 or localhost)`);
    return undefined;
  }
  return url.toString();
}

export function loadContactConfig(env: NodeJS.ProcessEnv): ConfigResult {
  const problems: string[] = [];

  const ownerEmail = read(env, 'OWNER_EMAIL');
  if (!ownerEmail) problems.push('OWNER_EMAIL is not set');
  else if (!ADDRESS.test(ownerEmail)) problems.push('OWNER_EMAIL is not an email address');

  const senderEmail = read(env, 'SENDER_EMAIL');
  if (!senderEmail) problems.push('SENDER_EMAIL is not set');
  else if (!ADDRESS.test(senderEmail)) problems.push('SENDER_EMAIL is not an email address');

  // The SSM parameter wins: in Lambda the secret must never sit in the environment.
  let secret: SecretSource | undefined;
  const parameterName = read(env, 'RECAPTCHA_SECRET_PARAMETER');
  const localSecret = read(env, 'RECAPTCHA_SECRET');
  if (parameterName) {
    if (PARAMETER_NAME.test(parameterName)) secret = { kind: 'ssm', parameterName };
    else problems.push('RECAPTCHA_SECRET_PARAMETER is not a valid SSM parameter name');
  } else if (localSecret) {
    if (read(env, 'AWS_LAMBDA_FUNCTION_NAME')) {
      problems.push('RECAPTCHA_SECRET is for the local stack only; in Lambda set RECAPTCHA_SECRET_PARAMETER');
    } else {
      secret = { kind: 'env', value: localSecret };
    }
  } else {
    problems.push('RECAPTCHA_SECRET_PARAMETER is not set (the local stack may set RECAPTCHA_SECRET instead)');
  }

  const verifyUrl = checkUrl(
    'RECAPTCHA_VERIFY_URL',
    read(env, 'RECAPTCHA_VERIFY_URL') ?? DEFAULT_RECAPTCHA_VERIFY_URL,
    problems,
    false,
  );

  let sesEndpoint: string | undefined;
  const rawSesEndpoint = read(env, 'SES_ENDPOINT');
  if (rawSesEndpoint) sesEndpoint = checkUrl('SES_ENDPOINT', rawSesEndpoint, problems, true);

  let region = read(env, 'AWS_REGION') ?? read(env, 'AWS_DEFAULT_REGION');
  if (!region && rawSesEndpoint) region = LOCAL_REGION;
  if (!region) problems.push('AWS_REGION is not set');
  else if (!/^[a-z]{2}(-[a-z]+)+-\d+$/.test(region)) problems.push('AWS_REGION is not an AWS region name');

  if (problems.length > 0 || !ownerEmail || !senderEmail || !secret || !verifyUrl || !region) {
    return { ok: false, problems };
  }
  return {
    ok: true,
    config: { ownerEmail, senderEmail, secret, verifyUrl, region, ...(sesEndpoint ? { sesEndpoint } : {}) },
  };
}
