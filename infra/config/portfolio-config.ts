/**
 * The deploy configuration: the "portfolio" block of cdk.json's context, the one place an owner edits
 * (documented in README "Deploying to AWS"). It is checked before anything is built or deployed; every
 * missing or malformed value is reported with its key, all at once.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CDK_JSON_FILE = path.join(REPO_ROOT, 'cdk.json');
/** The context key in cdk.json that holds the configuration. */
export const CONFIG_CONTEXT_KEY = 'portfolio';

export interface DomainConfig {
  /** The site's host name, e.g. "www.example.dev" or the zone apex "example.dev". */
  domainName: string;
  /** The Route 53 public hosted zone that holds domainName (no lookup: synth stays offline). */
  hostedZoneId: string;
  hostedZoneName: string;
}

export interface PortfolioConfig {
  /** CloudFormation stack name. */
  stackName: string;
  /** Region of the stack (API, Lambda, SES, SSM). The certificate is always made in us-east-1. */
  region: string;
  /** Receives the contact messages and the alarm e-mails. */
  ownerEmail: string;
  /** The From address of contact mails; must be verified in SES (itself or its domain). */
  senderEmail: string;
  /** The SES identity the Lambda may send as: senderEmail itself or its domain (default senderEmail). */
  senderIdentity: string;
  /** Name of the SSM SecureString that holds the reCAPTCHA secret (never the secret itself). */
  recaptchaSecretParameter: string;
  /** reCAPTCHA v2 site key, public, built into the page. */
  recaptchaSiteKey: string;
  /** GA4 measurement id, or "" for no analytics. */
  gaMeasurementId: string;
  /** Where the browser posts; default same origin through CloudFront's /api/* behavior. */
  contactEndpoint: string;
  eventsEndpoint: string;
  /** Days CloudWatch keeps the Lambda and API logs. */
  logRetentionDays: number;
  /** Optional custom domain; null: the site is served on its *.cloudfront.net name. */
  domain: DomainConfig | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid deploy configuration (cdk.json → context.${CONFIG_CONTEXT_KEY}):\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

/** Google's public reCAPTCHA v2 test key (always passes); fine for a trial deploy, not for real visitors. */
export const RECAPTCHA_TEST_SITE_KEY = '6LeIxAcTAAAAAJcZVRqyHh9G0Ru7j7xz8H5kOhK1';

/** Retention values CloudWatch Logs accepts. */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const EMAIL = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@([A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}$/;
const HOSTNAME = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
// SSM: letters, digits, . - _ and "/" hierarchy levels; names starting with aws or ssm are reserved.
const SSM_NAME = /^(\/[A-Za-z0-9_.-]+){1,15}$|^[A-Za-z0-9_.-]+$/;
const SITE_KEY = /^[A-Za-z0-9_-]{20,100}$/;
const GA_ID = /^G-[A-Z0-9]{4,20}$/;
const REGION = /^[a-z]{2}(-[a-z]+)+-\d$/;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;
const ENDPOINT = /^(\/[A-Za-z0-9._~\-/]*|https:\/\/[^\s"'<>]+)$/;

const KNOWN_KEYS = new Set([
  'stackName',
  'region',
  'ownerEmail',
  'senderEmail',
  'senderIdentity',
  'recaptchaSecretParameter',
  'recaptchaSiteKey',
  'gaMeasurementId',
  'contactEndpoint',
  'eventsEndpoint',
  'logRetentionDays',
  'domain',
]);
const DOMAIN_KEYS = new Set(['domainName', 'hostedZoneId', 'hostedZoneName']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Checks a raw "portfolio" block and returns the typed configuration with defaults filled in.
 * Throws ConfigError listing every problem, each starting with the key it concerns.
 */
export function parseConfig(raw: unknown): PortfolioConfig {
  const problems: string[] = [];
  const key = (name: string) => `${CONFIG_CONTEXT_KEY}.${name}`;
  if (!isRecord(raw)) {
    throw new ConfigError([
      `${CONFIG_CONTEXT_KEY}: missing; add a "${CONFIG_CONTEXT_KEY}" object to the "context" of cdk.json`,
    ]);
  }
  for (const name of Object.keys(raw)) {
    if (!KNOWN_KEYS.has(name)) problems.push(`${key(name)}: unknown key (known: ${[...KNOWN_KEYS].join(', ')})`);
  }

  /** A string value: trimmed; missing/empty gives the fallback or, without one, a "missing" problem. */
  const text = (name: string, fallback?: string): string => {
    const value = raw[name];
    if (value === undefined || value === null || (typeof value === 'string' && value.trim() === '')) {
      if (fallback === undefined) problems.push(`${key(name)}: missing`);
      return fallback ?? '';
    }
    if (typeof value !== 'string') {
      problems.push(`${key(name)}: must be a string, got ${JSON.stringify(value)}`);
      return '';
    }
    return value.trim();
  };
  const check = (name: string, value: string, ok: boolean, expected: string) => {
    if (value !== '' && !ok) problems.push(`${key(name)}: ${JSON.stringify(value)} is not ${expected}`);
  };

  const stackName = text('stackName', 'Portfolio');
  check('stackName', stackName, STACK_NAME.test(stackName), 'a stack name (letters, digits, "-"; starts with a letter)');
  const region = text('region', 'us-east-1');
  check('region', region, REGION.test(region), 'an AWS region such as "eu-west-1"');

  const ownerEmail = text('ownerEmail');
  check('ownerEmail', ownerEmail, isEmail(ownerEmail), 'an e-mail address');
  const senderEmail = text('senderEmail');
  check('senderEmail', senderEmail, isEmail(senderEmail), 'an e-mail address');
  const senderDomain = senderEmail.slice(senderEmail.lastIndexOf('@') + 1).toLowerCase();
  const senderIdentity = text('senderIdentity', senderEmail);
  check(
    'senderIdentity',
    senderIdentity,
    senderIdentity.toLowerCase() === senderEmail.toLowerCase() || senderIdentity.toLowerCase() === senderDomain,
    `the sender address or its domain (${JSON.stringify(senderEmail)} or ${JSON.stringify(senderDomain)})`,
  );

  const recaptchaSecretParameter = text('recaptchaSecretParameter');
  check(
    'recaptchaSecretParameter',
    recaptchaSecretParameter,
    isSsmParameterName(recaptchaSecretParameter),
    'an SSM parameter name such as "/portfolio/recaptcha-secret" (letters, digits, . - _ and /; not starting with aws or ssm)',
  );
  const recaptchaSiteKey = text('recaptchaSiteKey');
  check('recaptchaSiteKey', recaptchaSiteKey, SITE_KEY.test(recaptchaSiteKey), 'a reCAPTCHA site key (20-100 letters, digits, - or _)');
  const gaMeasurementId = text('gaMeasurementId', '');
  check('gaMeasurementId', gaMeasurementId, GA_ID.test(gaMeasurementId), 'a GA4 measurement id like "G-AB12CD34EF" (or "" for no analytics)');

  const contactEndpoint = text('contactEndpoint', '/api/contact');
  check('contactEndpoint', contactEndpoint, ENDPOINT.test(contactEndpoint), 'a same-origin path ("/api/contact") or an https:// URL');
  const eventsEndpoint = text('eventsEndpoint', '/api/events');
  check('eventsEndpoint', eventsEndpoint, ENDPOINT.test(eventsEndpoint), 'a same-origin path ("/api/events") or an https:// URL');

  let logRetentionDays = 30;
  if (raw.logRetentionDays !== undefined) {
    const days = raw.logRetentionDays;
    if (typeof days === 'number' && (LOG_RETENTION_DAYS as readonly number[]).includes(days)) logRetentionDays = days;
    else problems.push(`${key('logRetentionDays')}: ${JSON.stringify(days)} is not one of ${LOG_RETENTION_DAYS.join(', ')}`);
  }

  let domain: DomainConfig | null = null;
  if (raw.domain !== undefined && raw.domain !== null) {
    if (!isRecord(raw.domain)) {
      problems.push(`${key('domain')}: must be null or {"domainName", "hostedZoneId", "hostedZoneName"}`);
    } else {
      const d = raw.domain;
      for (const name of Object.keys(d)) {
        if (!DOMAIN_KEYS.has(name)) problems.push(`${key(`domain.${name}`)}: unknown key (known: ${[...DOMAIN_KEYS].join(', ')})`);
      }
      const field = (name: string): string => {
        const value = d[name];
        if (typeof value !== 'string' || value.trim() === '') {
          problems.push(`${key(`domain.${name}`)}: missing (a custom domain needs domainName, hostedZoneId and hostedZoneName)`);
          return '';
        }
        return value.trim().replace(/\.$/, '').toLowerCase();
      };
      const domainName = field('domainName');
      const hostedZoneId = field('hostedZoneId').toUpperCase();
      const hostedZoneName = field('hostedZoneName');
      check('domain.domainName', domainName, HOSTNAME.test(domainName) && domainName.length <= 253, 'a host name such as "www.example.dev"');
      check('domain.hostedZoneId', hostedZoneId, HOSTED_ZONE_ID.test(hostedZoneId), 'a Route 53 hosted zone id such as "Z0123456789ABCDEFGHIJ"');
      check('domain.hostedZoneName', hostedZoneName, HOSTNAME.test(hostedZoneName), 'a zone name such as "example.dev"');
      if (domainName && hostedZoneName && domainName !== hostedZoneName && !domainName.endsWith(`.${hostedZoneName}`)) {
        problems.push(`${key('domain.domainName')}: "${domainName}" is not inside the hosted zone "${hostedZoneName}"`);
      }
      domain = { domainName, hostedZoneId, hostedZoneName };
    }
  }

  if (problems.length > 0) throw new ConfigError(problems);
  return {
    stackName,
    region,
    ownerEmail,
    senderEmail,
    senderIdentity,
    recaptchaSecretParameter,
    recaptchaSiteKey,
    gaMeasurementId,
    contactEndpoint,
    eventsEndpoint,
    logRetentionDays,
    domain,
  };
}

export function isEmail(value: string): boolean {
  return value.length <= 254 && EMAIL.test(value);
}

export function isSsmParameterName(value: string): boolean {
  const bare = value.replace(/^\//, '').toLowerCase();
  return value.length <= 1011 && SSM_NAME.test(value) && !bare.startsWith('aws') && !bare.startsWith('ssm');
}

/** The site's public URL when it is known before deploy (custom domain), else "". */
export function siteUrl(config: PortfolioConfig): string {
  return config.domain ? `https://${config.domain.domainName}` : '';
}

/** The build variables the web app reads (design §2), taken from the configuration. */
export function webBuildEnv(config: PortfolioConfig): Record<string, string> {
  return {
    VITE_CONTACT_ENDPOINT: config.contactEndpoint,
    VITE_EVENTS_ENDPOINT: config.eventsEndpoint,
    VITE_RECAPTCHA_SITE_KEY: config.recaptchaSiteKey,
    VITE_GA_MEASUREMENT_ID: config.gaMeasurementId,
    VITE_SITE_URL: siteUrl(config),
  };
}

// RFC 2606 reserved names: the shipped example values use them, so a real deploy must replace them.
const RESERVED = /(^|[.@])(example\.(com|org|net)|[a-z0-9-]+\.(example|test|invalid|localhost))$/i;

/**
 * Extra checks before a real deploy (npm run deploy): the example values that make offline synth work
 * must be replaced. Returns problems naming the key; empty when ready.
 */
export function deployReadinessProblems(config: PortfolioConfig): string[] {
  const problems: string[] = [];
  const key = (name: string) => `${CONFIG_CONTEXT_KEY}.${name}`;
  for (const name of ['ownerEmail', 'senderEmail'] as const) {
    if (RESERVED.test(config[name])) problems.push(`${key(name)}: "${config[name]}" is an example address; put your real one`);
  }
  if (config.domain && RESERVED.test(config.domain.domainName)) {
    problems.push(`${key('domain.domainName')}: "${config.domain.domainName}" is an example domain; put yours or set domain to null`);
  }
  return problems;
}

/** Reads and checks the "portfolio" block of a cdk.json file. */
export function loadConfigFromCdkJson(file: string = CDK_JSON_FILE): PortfolioConfig {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`${file}: cannot be read as JSON (${(error as Error).message})`]);
  }
  const context = isRecord(json) && isRecord(json.context) ? json.context : {};
  return parseConfig(context[CONFIG_CONTEXT_KEY]);
}
