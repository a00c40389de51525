/**
 * The deploy configuration: the "portfolio" block of cdk.json's context, the one place an owner edits
 * (documented in docs/deploy.md, "Configure"). It is checked before anything is built or deployed; every
 * missing or malformed value is reported with its key, all at once.
 */
import { DEFAULT_CAPTCHA_MONTHLY_BUDGET } from '../../contract/limits';
import { DAILY_REQUESTS_LIMITS, dailyNumberFloor, MIN_ADDRESSES_TO_TRIP, type BreakerRoute } from '../../contract/breaker';
import { dailyRequestsFromBudget, defaultMonthlyBudgetUsd, FLOOD_CEILING_USD } from '../../contract/cost-model';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  GA_MEASUREMENT_ID_PATTERN,
  RECAPTCHA_SITE_KEY_PATTERN,
  RECAPTCHA_TEST_SECRET,
  RECAPTCHA_TEST_SITE_KEY,
} from '../../contract/settings';
import { DEFAULT_MESSAGE_RETENTION_DAYS, MESSAGE_RETENTION_LIMITS } from '../../contract/archive';
import {
  CLOUDFRONT_PLAN_TIERS,
  type CloudFrontPlanTier,
  DEFAULT_CLOUDFRONT_PLAN,
  defaultPreviewPlan,
  isCloudFrontPlanTier,
} from '../../contract/cloudfront-plans';
import { AWS_REGION_PATTERN, emailDomain, isEmail } from './patterns';

export { isEmail } from './patterns';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CDK_JSON_FILE = path.join(REPO_ROOT, 'cdk.json');
/** What the scripts check: cdk.json, or PORTFOLIO_CDK_JSON in tests (cdk itself always reads cdk.json). */
const scriptConfigFile = () => process.env.PORTFOLIO_CDK_JSON || CDK_JSON_FILE;
/** The context key in cdk.json that holds the configuration. */
export const CONFIG_CONTEXT_KEY = 'portfolio';
/**
 * Context keys the scripts pass on the command line (`cdk -c portfolio:stage=NAME`), each overriding
 * the block's key of the same name: the stage, a trial deploy and the site's address learned from AWS.
 */
export const CONTEXT_OVERRIDES = { stage: 'portfolio:stage', trial: 'portfolio:trial', siteUrl: 'portfolio:siteUrl' } as const;

export interface DomainConfig {
  /** The site's host name, e.g. "www.example.dev" or the zone apex "example.dev". */
  domainName: string;
  /** Route 53 mode: the public hosted zone that holds domainName (no lookup: synth stays offline). */
  hostedZoneId?: string;
  hostedZoneName?: string;
  /**
   * External DNS mode (no hostedZoneId): the us-east-1 ACM certificate `npm run setup` requested; the
   * stack imports it and writes no DNS records (the owner publishes them at their DNS host).
   */
  certificateArn?: string;
}

/** A domain whose DNS is a Route 53 zone in this account. */
export type Route53Domain = DomainConfig & { hostedZoneId: string; hostedZoneName: string };
export const isRoute53Domain = (domain: DomainConfig | null | undefined): domain is Route53Domain =>
  Boolean(domain?.hostedZoneId && domain.hostedZoneName);

/**
 * The stacks the app makes for this configuration, each with its region: the site's own, and with a
 * Route 53 domain outside us-east-1 a certificate stack there (CloudFront takes certificates from
 * us-east-1 only). The app names its stacks from this, and a deploy of a built assembly accepts these
 * stacks and no other.
 */
export function portfolioStackNames(config: Pick<PortfolioConfig, 'stackName' | 'region' | 'domain'>): {
  main: string;
  certificate?: string;
} {
  const certificate = isRoute53Domain(config.domain) && config.region !== CLOUDFRONT_CERTIFICATE_REGION;
  return { main: config.stackName, ...(certificate ? { certificate: `${config.stackName}-Certificate` } : {}) };
}

/** The live site's stack name, also for a preview stage ("<live>-<stage>"): what setup names its fence after. */
export function liveStackName(config: Pick<PortfolioConfig, 'stackName' | 'stage'>): string {
  return config.stage ? config.stackName.slice(0, -(config.stage.length + 1)) : config.stackName;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid deploy configuration (cdk.json → context.${CONFIG_CONTEXT_KEY}):\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

// Google's public reCAPTCHA v2 test key and its secret (always pass): fine for a trial deploy, not for real visitors.
export { RECAPTCHA_TEST_SECRET, RECAPTCHA_TEST_SITE_KEY };

/**
 * CloudFront takes ACM certificates from this region only, wherever the stack lives. Source: AWS
 * Certificate Manager User Guide, "Supported Regions": https://docs.aws.amazon.com/acm/latest/userguide/acm-regions.html
 */
export const CLOUDFRONT_CERTIFICATE_REGION = 'us-east-1';

/**
 * Retention values CloudWatch Logs accepts (infra/lib/cdk-facts.test.ts holds them to aws-cdk-lib's
 * RetentionDays). Source: CloudWatch Logs API Reference, PutRetentionPolicy, retentionInDays:
 * https://docs.aws.amazon.com/AmazonCloudWatchLogs/latest/APIReference/API_PutRetentionPolicy.html
 */
export const LOG_RETENTION_DAYS = [
  1, 3, 5, 7, 14, 30, 60, 90, 120, 150, 180, 365, 400, 545, 731, 1096, 1827, 2192, 2557, 2922, 3288, 3653,
] as const;

const HOSTNAME = /^([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
// SSM: letters, digits, . - _ and "/" hierarchy levels (at most 15), at most 1011 characters; names starting
// with aws or ssm are reserved. Source: Systems Manager API Reference, PutParameter, Name:
// https://docs.aws.amazon.com/systems-manager/latest/APIReference/API_PutParameter.html
const SSM_NAME = /^(\/[A-Za-z0-9_.-]+){1,15}$|^[A-Za-z0-9_.-]+$/;
const SITE_KEY = RECAPTCHA_SITE_KEY_PATTERN;
const GA_ID = GA_MEASUREMENT_ID_PATTERN;
const HOSTED_ZONE_ID = /^Z[A-Z0-9]{1,31}$/;
const STACK_NAME = /^[A-Za-z][A-Za-z0-9-]{0,127}$/;
const ENDPOINT = /^(\/[A-Za-z0-9._~\-/]*|https:\/\/[^\s"'<>]+)$/;
// Short, so "<stackName>-<stage>" stays readable in the console and within every name limit.
const STAGE = /^[a-z][a-z0-9-]{0,19}$/;
const SITE_URL = /^https:\/\/[a-z0-9.-]+(:\d{1,5})?$/;

/** For a cross-key check that runs despite other keys' problems: both values parsed as expected. */
function bothValid(value: unknown, keys: [string, string], pattern: RegExp): boolean {
  const record = value as Record<string, unknown> | null;
  return keys.every((key) => typeof record?.[key] === 'string' && pattern.test(record[key] as string));
}

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
const quoted = (value: unknown) => JSON.stringify(value);

/** A string, trimmed; blank or absent gives `fallback`, or "missing" when there is none. */
function text(options: { fallback?: string; valid?: (value: string) => boolean; expected?: string; missing?: string }) {
  const missing = options.missing ?? 'missing';
  const base = z
    .unknown()
    .optional()
    .transform((value) => (isBlank(value) ? options.fallback : value))
    .pipe(z.string({ error: (issue) => (issue.input === undefined ? missing : `must be a string, got ${quoted(issue.input)}`) }).trim());
  const { valid, expected } = options;
  if (!valid) return base;
  // The fallback ("" for optional values) is always acceptable.
  return base.refine((value) => value === options.fallback || valid(value), {
    error: (issue) => `${quoted(issue.input)} is not ${expected}`,
  });
}

/**
 * A value, absent or null giving `fallback`, that `valid` accepts; else "<value> <problem>". A refinement,
 * not a type: a wrong value here must not hide the cross-key checks.
 */
const defaulted = <T>(fallback: T, valid: (value: unknown) => boolean, problem: string) =>
  z
    .unknown()
    .optional()
    .transform((value) => value ?? fallback)
    .refine(valid, { error: (issue) => `${quoted(issue.input)} ${problem}` })
    .transform((value) => value as T);

/** Absent or null: `fallback`; then checked as `schema` does. */
const orDefault = <S extends z.ZodType>(fallback: unknown, schema: S) =>
  z
    .unknown()
    .optional()
    .transform((value) => value ?? fallback)
    .pipe(schema);

/** A value that may be left out (null too, when `valid` takes it); present, `valid` must accept it, else "<value> <problem>". */
const optionalValue = <T>(valid: (value: unknown) => boolean, problem: string) =>
  z
    .unknown()
    .optional()
    .refine((value) => value === undefined || valid(value), { error: (issue) => `${quoted(issue.input)} ${problem}` })
    .transform((value) => (value ?? undefined) as T | undefined);

const wholeNumber = (min: number, max: number) => (value: unknown) =>
  Number.isInteger(value) && (value as number) >= min && (value as number) <= max;

const domainField = (normalize: (value: string) => string, valid: (value: string) => boolean, expected: string) =>
  text({ missing: 'missing (a custom domain needs domainName, hostedZoneId and hostedZoneName)' })
    .transform((value) => normalize(value.replace(/\.$/, '')))
    .refine(valid, { error: (issue) => `${quoted(issue.input)} is not ${expected}` });

/**
 * An ACM certificate in us-east-1, the only region CloudFront takes certificates from (ACM User Guide,
 * "Supported Regions": https://docs.aws.amazon.com/acm/latest/userguide/acm-regions.html).
 */
const CERTIFICATE_ARN = /^arn:aws[a-z-]*:acm:us-east-1:\d{12}:certificate\/[A-Za-z0-9-]+$/;
const MISSING_ZONE =
  'missing (a custom domain needs domainName, hostedZoneId and hostedZoneName; or, with DNS outside Route 53, domainName and certificateArn)';

const DomainSchema = z
  .strictObject(
    {
      domainName: domainField(
        (v) => v.toLowerCase(),
        (v) => HOSTNAME.test(v) && v.length <= 253,
        'a host name such as "www.example.dev"',
      ),
      hostedZoneId: domainField(
        (v) => v.toUpperCase(),
        (v) => HOSTED_ZONE_ID.test(v),
        'a Route 53 hosted zone id such as "Z0123456789ABCDEFGHIJ"',
      ).optional(),
      hostedZoneName: domainField(
        (v) => v.toLowerCase(),
        (v) => HOSTNAME.test(v),
        'a zone name such as "example.dev"',
      ).optional(),
      certificateArn: text({ missing: 'missing' })
        .refine((v) => CERTIFICATE_ARN.test(v), {
          error: (issue) =>
            `${quoted(issue.input)} is not an ACM certificate ARN in us-east-1 (arn:aws:acm:us-east-1:ACCOUNT:certificate/ID)`,
        })
        .optional(),
    },
    { error: () => 'must be null or {"domainName", "hostedZoneId", "hostedZoneName"} or {"domainName", "certificateArn"}' },
  )
  .superRefine(
    ({ domainName, hostedZoneId, hostedZoneName, certificateArn }, ctx) => {
      if (certificateArn !== undefined) {
        const zoneKey = hostedZoneId !== undefined ? 'hostedZoneId' : hostedZoneName !== undefined ? 'hostedZoneName' : undefined;
        if (zoneKey) {
          ctx.addIssue({
            code: 'custom',
            input: zoneKey,
            path: [zoneKey],
            message:
              'not with certificateArn: a domain is either in a Route 53 zone here or has its DNS elsewhere (then drop hostedZoneId and hostedZoneName)',
          });
        }
        // A zone's apex cannot hold the CNAME an outside DNS host would point at CloudFront (RFC 1034, 3.6.2).
        if (domainName.split('.').length < 3) {
          ctx.addIssue({
            code: 'custom',
            input: domainName,
            path: ['domainName'],
            message: `"${domainName}" is a zone apex: outside Route 53 it cannot point at CloudFront (a CNAME cannot sit at the apex); use a name such as "www.${domainName}", or a Route 53 zone`,
          });
        }
        return;
      }
      // One line when both are missing.
      if (hostedZoneId === undefined) ctx.addIssue({ code: 'custom', input: undefined, path: ['hostedZoneId'], message: MISSING_ZONE });
      else if (hostedZoneName === undefined)
        ctx.addIssue({ code: 'custom', input: undefined, path: ['hostedZoneName'], message: MISSING_ZONE });
      if (hostedZoneName !== undefined && domainName !== hostedZoneName && !domainName.endsWith(`.${hostedZoneName}`)) {
        ctx.addIssue({
          code: 'custom',
          input: domainName,
          path: ['domainName'],
          message: `"${domainName}" is not inside the hosted zone "${hostedZoneName}"`,
        });
      }
    },
    // Also when another key is wrong: every problem at once. Needs the names well-formed.
    {
      when: ({ value }) =>
        bothValid(value, ['domainName', 'domainName'], HOSTNAME) &&
        ((value as Record<string, unknown>)?.hostedZoneName === undefined || bothValid(value, ['domainName', 'hostedZoneName'], HOSTNAME)),
    },
  );

const dailyRequests = (route: BreakerRoute) =>
  optionalValue<number>(
    wholeNumber(dailyNumberFloor(route), DAILY_REQUESTS_LIMITS.max),
    `is not a whole number of counted ${route} requests a day from ${dailyNumberFloor(route)} ` +
      `(below it, ${MIN_ADDRESSES_TO_TRIP} addresses' shares could trip it) to ${DAILY_REQUESTS_LIMITS.max}; ` +
      'leave it out to have it from monthlyBudgetUsd',
  );

/** Each route's daily number; a route left out has the one monthlyBudgetUsd gives it (contract/cost-model.ts). */
const CircuitBreakerSchema = z.strictObject(
  { contact: dailyRequests('contact'), events: dailyRequests('events'), vitals: dailyRequests('vitals') },
  { error: () => 'must be an object such as {"contact": 200, "events": 10000, "vitals": 10000}' },
);

const siteKey = text({
  fallback: RECAPTCHA_TEST_SITE_KEY,
  valid: (v) => SITE_KEY.test(v),
  expected: 'a reCAPTCHA site key (20-100 letters, digits, - or _)',
});
const endpoint = (fallback: string) =>
  text({ fallback, valid: (v) => ENDPOINT.test(v), expected: `a same-origin path ("${fallback}") or an https:// URL` });

const ConfigSchema = z
  .strictObject(
    {
      stackName: text({
        fallback: 'Portfolio',
        valid: (v) => STACK_NAME.test(v),
        expected: 'a stack name (letters, digits, "-"; starts with a letter)',
      }),
      region: text({ fallback: 'us-east-1', valid: (v) => AWS_REGION_PATTERN.test(v), expected: 'an AWS region such as "eu-west-1"' }),
      ownerEmail: text({ valid: isEmail, expected: 'an e-mail address' }),
      senderEmail: text({ valid: isEmail, expected: 'an e-mail address' }),
      senderIdentity: text({ fallback: '' }),
      recaptchaSecretParameter: text({
        valid: isSsmParameterName,
        expected:
          'an SSM parameter name such as "/portfolio/recaptcha-secret" (letters, digits, . - _ and /; not starting with aws or ssm)',
      }),
      // Absent or null: Google's test key, so cdk.json never carries a copy of it (a trial or `npm start` only).
      recaptchaSiteKey: siteKey,
      // Previews have their own captcha: Google's test key by default (the stack stores Google's public
      // test secret itself), or a key of the owner's whose secret sits in a parameter of its own.
      previewRecaptchaSiteKey: siteKey,
      previewRecaptchaSecretParameter: text({
        fallback: '',
        valid: isSsmParameterName,
        expected: 'an SSM parameter name such as "/portfolio/preview-recaptcha-secret"',
      }),
      gaMeasurementId: text({
        fallback: '',
        valid: (v) => GA_ID.test(v),
        expected: 'a GA4 measurement id like "G-AB12CD34EF" (or "" for no analytics)',
      }),
      contactEndpoint: endpoint('/api/contact'),
      eventsEndpoint: endpoint('/api/events'),
      logRetentionDays: defaulted(
        30,
        (value) => (LOG_RETENTION_DAYS as readonly unknown[]).includes(value),
        `is not one of ${LOG_RETENTION_DAYS.join(', ')}`,
      ),
      messageRetentionDays: defaulted(
        DEFAULT_MESSAGE_RETENTION_DAYS,
        wholeNumber(MESSAGE_RETENTION_LIMITS.min, MESSAGE_RETENTION_LIMITS.max),
        `is not a whole number of days from ${MESSAGE_RETENTION_LIMITS.min} to ` +
          `${MESSAGE_RETENTION_LIMITS.max} (default ${DEFAULT_MESSAGE_RETENTION_DAYS})`,
      ),
      // siteverify calls the contact form may make a month before it answers 503 (contract/limits.ts).
      captchaMonthlyBudget: defaulted(
        DEFAULT_CAPTCHA_MONTHLY_BUDGET,
        wholeNumber(1, 100_000_000),
        `is not a whole number of siteverify calls a month, at least 1 (default ${DEFAULT_CAPTCHA_MONTHLY_BUDGET})`,
      ),
      // The AWS Budgets cost budget npm run setup creates (infra/scripts/doctor/budget.ts), in US dollars a month.
      monthlyBudgetUsd: optionalValue<number>(
        (value) => typeof value === 'number' && Number.isFinite(value) && value >= 1 && value <= 1_000_000,
        'is not an amount in US dollars a month, at least 1 (default: a quiet month on the plan and ' +
          `$${FLOOD_CEILING_USD} for a flood, contract/cost-model.ts)`,
      ),
      // Counted requests each API route takes in a UTC day before its circuit breaker turns it down
      // (contract/breaker.ts); left out, from monthlyBudgetUsd through the cost model.
      circuitBreaker: orDefault({}, CircuitBreakerSchema),
      deleteArchiveOnDestroy: orDefault(false, z.boolean({ error: (issue) => `must be true or false, got ${quoted(issue.input)}` })),
      domain: orDefault(null, DomainSchema.nullable()),
      // How CloudFront bills the live distribution and the previews' (contract/cloudfront-plans.ts).
      cloudFrontPlan: defaulted<CloudFrontPlanTier>(
        DEFAULT_CLOUDFRONT_PLAN,
        isCloudFrontPlanTier,
        `is not one of ${CLOUDFRONT_PLAN_TIERS.map(quoted).join(', ')} (default ${quoted(DEFAULT_CLOUDFRONT_PLAN)}; ` +
          '"payAsYouGo" has no flat-rate plan and no ceiling on the bill)',
      ),
      // The previews' distribution's plan; absent: Free (pay-as-you-go when cloudFrontPlan is).
      previewCloudFrontPlan: optionalValue<CloudFrontPlanTier>(
        (value) => value === null || isCloudFrontPlanTier(value),
        `is not one of ${CLOUDFRONT_PLAN_TIERS.map(quoted).join(', ')} (absent: "free", or "payAsYouGo" when cloudFrontPlan is)`,
      ),
      // npm run setup's answer about SES production access (the stack does not read it); absent: not asked yet.
      sesProductionAccess: z
        .unknown()
        .optional()
        .pipe(
          z
            .boolean({
              error: (issue) => `must be true (ask AWS for production access) or false (stay in the sandbox), got ${quoted(issue.input)}`,
            })
            .optional(),
        ),
      stage: text({
        fallback: '',
        valid: (v) => STAGE.test(v),
        expected: 'a stage name (lower-case letters, digits and "-", up to 20, starting with a letter)',
      }),
      trial: z
        .unknown()
        .optional()
        .transform((value) => (isBlank(value) ? false : value === 'true' ? true : value === 'false' ? false : value))
        .pipe(z.boolean({ error: (issue) => `must be true or false, got ${quoted(issue.input)}` })),
      siteUrl: text({
        fallback: '',
        valid: (v) => SITE_URL.test(v),
        expected: 'the site\'s https:// origin, such as "https://d111111abcdef8.cloudfront.net"',
      }),
    },
    { error: () => `missing; add a "${CONFIG_CONTEXT_KEY}" object to the "context" of cdk.json` },
  )
  .superRefine(
    ({ senderEmail, senderIdentity }, ctx) => {
      // The identity the owner verified in SES: the sender address itself or its domain.
      if (!senderIdentity || !senderEmail) return;
      const allowed = [senderEmail.toLowerCase(), emailDomain(senderEmail)];
      if (!allowed.includes(senderIdentity.toLowerCase())) {
        ctx.addIssue({
          code: 'custom',
          input: senderIdentity,
          path: ['senderIdentity'],
          message: `${quoted(senderIdentity)} is not the sender address or its domain (${allowed.map(quoted).join(' or ')})`,
        });
      }
    },
    { when: ({ value }) => bothValid(value, ['senderEmail', 'senderIdentity'], /^\S+$/) },
  )
  .superRefine(({ recaptchaSecretParameter, previewRecaptchaSiteKey, previewRecaptchaSecretParameter }, ctx) => {
    const issue = (message: string) =>
      ctx.addIssue({ code: 'custom', input: previewRecaptchaSecretParameter, path: ['previewRecaptchaSecretParameter'], message });
    const testKey = previewRecaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY;
    if (!testKey && !previewRecaptchaSecretParameter) {
      issue('missing: previewRecaptchaSiteKey is a key of your own, so name the SSM parameter holding its secret');
    } else if (testKey && previewRecaptchaSecretParameter) {
      issue("only with previewRecaptchaSiteKey: with Google's test key a preview stores Google's public test secret itself");
    } else if (previewRecaptchaSecretParameter && previewRecaptchaSecretParameter === recaptchaSecretParameter) {
      issue(
        `${quoted(previewRecaptchaSecretParameter)} is the live site's recaptchaSecretParameter; a preview never touches it: name another`,
      );
    }
  });

type ParsedConfig = z.output<typeof ConfigSchema>;

export interface PortfolioConfig extends Omit<ParsedConfig, 'domain'> {
  /** CloudFormation stack name: the block's stackName, with "-<stage>" for a preview stage. */
  stackName: string;
  /** Region of the stack (API, Lambda, SES, SSM). The certificate is always made in us-east-1. */
  region: string;
  /** Receives the contact messages and the alarm e-mails. */
  ownerEmail: string;
  /** The From address of contact mails; must be verified in SES (itself or its domain). */
  senderEmail: string;
  /** The SES identity the owner verified for the sender: senderEmail itself or its domain (default senderEmail). */
  senderIdentity: string;
  /** Name of the SSM SecureString that holds the reCAPTCHA secret (never the secret itself). */
  recaptchaSecretParameter: string;
  /** reCAPTCHA v2 site key, public, built into the page; absent or null in cdk.json: Google's test key. */
  recaptchaSiteKey: string;
  /** The key previews use: absent or null, Google's test key (a preview's copy of recaptchaSiteKey). */
  previewRecaptchaSiteKey: string;
  /** The SSM parameter of previewRecaptchaSiteKey's secret; "" with Google's test key (never the live one). */
  previewRecaptchaSecretParameter: string;
  /** GA4 measurement id, or "" for no analytics. */
  gaMeasurementId: string;
  /** Where the browser posts; default same origin through CloudFront's /api/* behavior. */
  contactEndpoint: string;
  eventsEndpoint: string;
  /** Days CloudWatch keeps the Lambda and API logs. */
  logRetentionDays: number;
  /** Days the message archive keeps a contact message (DynamoDB time-to-live). */
  messageRetentionDays: number;
  /** siteverify calls a month before the contact form answers 503 (default under Google's free 10,000). */
  captchaMonthlyBudget: number;
  /** The account's monthly AWS Budgets cost budget, in US dollars (npm run setup creates it). */
  monthlyBudgetUsd: number;
  /** Requests each API route takes in a UTC day before its circuit breaker turns it down to a trickle. */
  circuitBreaker: Record<BreakerRoute, number>;
  /** true: `cdk destroy` deletes the message archive with the stack; default false keeps it; always true for a preview. */
  deleteArchiveOnDestroy: boolean;
  /** Optional custom domain (live stage only); null: the site is served on its *.cloudfront.net name. */
  domain: DomainConfig | null;
  /** The live distribution's CloudFront plan; a stage (stage !== "") is always pay-as-you-go. */
  cloudFrontPlan: CloudFrontPlanTier;
  /** The pull-request previews' distribution's plan; undefined: previewCloudFrontPlanOf's default. */
  previewCloudFrontPlan: CloudFrontPlanTier | undefined;
  /**
   * The owner's answer to npm run setup's production-access question: true asks AWS (once), false keeps
   * the SES sandbox and is not asked again; undefined: not answered yet.
   */
  sesProductionAccess?: boolean;
  /** "" for the live site; a name for an independent preview copy (its own stack and resources). */
  stage: string;
  /** The owner asked for a trial deploy: Google's test reCAPTCHA key is allowed. */
  trial: boolean;
  /** The site's public origin when known (custom domain, or the CloudFront domain the deploy learned); else "". */
  siteUrl: string;
}

/** One problem line per zod issue, each starting with the key it concerns. */
function problemsOf(error: z.ZodError, known: Record<string, readonly string[]>): string[] {
  return error.issues.flatMap((issue) => {
    const at = [CONFIG_CONTEXT_KEY, ...issue.path.map(String)].join('.');
    if (issue.code === 'unrecognized_keys') {
      const list = (known[issue.path.join('.')] ?? []).join(', ');
      return issue.keys.map((name) => `${at}.${name}: unknown key (known: ${list})`);
    }
    return [issue.path.length === 0 ? `${CONFIG_CONTEXT_KEY}: ${issue.message}` : `${at}: ${issue.message}`];
  });
}

/**
 * Checks a raw "portfolio" block and returns the typed configuration with defaults filled in.
 * Throws ConfigError listing every problem, each starting with the key it concerns.
 */
export function parseConfig(raw: unknown): PortfolioConfig {
  const result = ConfigSchema.safeParse(raw);
  if (!result.success) {
    throw new ConfigError(
      problemsOf(result.error, {
        '': Object.keys(ConfigSchema.shape),
        domain: Object.keys(DomainSchema.shape),
        circuitBreaker: Object.keys(CircuitBreakerSchema.shape),
      }),
    );
  }
  const parsed = result.data;
  const preview = parsed.stage !== '';
  // The custom domain stays with the live site: a preview is served on its own CloudFront domain.
  const domain = preview ? null : parsed.domain;
  const previewPlan = parsed.previewCloudFrontPlan ?? defaultPreviewPlan(parsed.cloudFrontPlan);
  const budget = parsed.monthlyBudgetUsd ?? defaultMonthlyBudgetUsd(parsed.cloudFrontPlan, previewPlan);
  return {
    ...parsed,
    // A preview gets its own captcha (Google's test key by default) and never sees the live secret's
    // name; its archive goes with it (a preview's messages are test messages).
    ...(preview
      ? {
          recaptchaSiteKey: parsed.previewRecaptchaSiteKey,
          recaptchaSecretParameter: parsed.previewRecaptchaSecretParameter,
          deleteArchiveOnDestroy: true,
        }
      : {}),
    // The budget's default and the breakers' numbers come from the cost model, for the live site's plan.
    monthlyBudgetUsd: budget,
    circuitBreaker: {
      ...dailyRequestsFromBudget(budget, parsed.cloudFrontPlan, previewPlan),
      ...Object.fromEntries(Object.entries(parsed.circuitBreaker).filter(([, n]) => n !== undefined)),
    },
    stackName: preview ? `${parsed.stackName}-${parsed.stage}` : parsed.stackName,
    senderIdentity: parsed.senderIdentity || parsed.senderEmail,
    domain,
    siteUrl: domain ? `https://${domain.domainName}` : parsed.siteUrl,
  };
}

/**
 * The plan a stack's distributions are on: the configured one for the live site; pay-as-you-go for a
 * stage, a short-lived copy whose paid subscription would bill its month even when deleted the same
 * day (a cancellation takes effect at the billing period's end: AWS::PricingPlanManager::Subscription,
 * https://docs.aws.amazon.com/AWSCloudFormation/latest/TemplateReference/aws-resource-pricingplanmanager-subscription.html).
 */
export function cloudFrontPlanOf(config: Pick<PortfolioConfig, 'stage' | 'cloudFrontPlan'>): CloudFrontPlanTier {
  return config.stage ? 'payAsYouGo' : config.cloudFrontPlan;
}

/**
 * The previews' distribution's plan (only the live stack has one): previewCloudFrontPlan, else Free under
 * a flat-rate site plan and pay-as-you-go under pay-as-you-go (contract/cloudfront-plans.ts,
 * defaultPreviewPlan), so by default a flood on a preview costs nothing.
 */
export function previewCloudFrontPlanOf(
  config: Pick<PortfolioConfig, 'stage' | 'cloudFrontPlan' | 'previewCloudFrontPlan'>,
): CloudFrontPlanTier {
  return config.stage ? 'payAsYouGo' : (config.previewCloudFrontPlan ?? defaultPreviewPlan(config.cloudFrontPlan));
}

/**
 * Why the stack cannot be on its plan, or undefined when it can: a CLOUDFRONT-scope web ACL, which
 * every plan includes, is made in us-east-1 only (AWS WAF Developer Guide, "Using AWS WAF with Amazon
 * CloudFront": https://docs.aws.amazon.com/waf/latest/developerguide/cloudfront-features.html), and the
 * stack holds it beside the distribution. Checked at synth (portfolio-app.ts), where it matters: the
 * owner's other commands read a stack wherever it is.
 */
export function planRegionProblem(
  config: Pick<PortfolioConfig, 'stage' | 'cloudFrontPlan' | 'previewCloudFrontPlan' | 'region'>,
): string | undefined {
  const plan = [cloudFrontPlanOf(config), previewCloudFrontPlanOf(config)].find((tier) => tier !== 'payAsYouGo');
  if (plan === undefined || config.region === CLOUDFRONT_CERTIFICATE_REGION) return undefined;
  return (
    `${CONFIG_CONTEXT_KEY}.cloudFrontPlan: ${quoted(plan)} needs ${CONFIG_CONTEXT_KEY}.region "${CLOUDFRONT_CERTIFICATE_REGION}" (the plan's ` +
    `web ACL is made there, beside the distribution), and region is ${quoted(config.region)}: set region to ` +
    `"${CLOUDFRONT_CERTIFICATE_REGION}", or cloudFrontPlan to "payAsYouGo" on purpose (docs/deploy.md, "The CloudFront plan")`
  );
}

export function isSsmParameterName(value: string): boolean {
  const bare = value.replace(/^\//, '').toLowerCase();
  return value.length <= 1011 && SSM_NAME.test(value) && !bare.startsWith('aws') && !bare.startsWith('ssm');
}

/** The build variables the web app reads, taken from the configuration. */
export function webBuildEnv(config: PortfolioConfig): Record<string, string> {
  return {
    VITE_CONTACT_ENDPOINT: config.contactEndpoint,
    VITE_EVENTS_ENDPOINT: config.eventsEndpoint,
    VITE_RECAPTCHA_SITE_KEY: config.recaptchaSiteKey,
    VITE_GA_MEASUREMENT_ID: config.gaMeasurementId,
    VITE_SITE_URL: config.siteUrl,
    // The privacy policy states how long the archive keeps a message: the value this deploy sets.
    VITE_MESSAGE_RETENTION_DAYS: String(config.messageRetentionDays),
    // And how long page views are kept: the functions' log retention.
    VITE_LOG_RETENTION_DAYS: String(config.logRetentionDays),
  };
}

// RFC 2606 reserved names: the shipped example values use them, so a real deploy must replace them.
const RESERVED = /(^|[.@])(example\.(com|org|net)|[a-z0-9-]+\.(example|test|invalid|localhost))$/i;

/** True while both addresses are still the shipped examples: an offline example, never deployed. */
export function isShippedExample(config: PortfolioConfig): boolean {
  return RESERVED.test(config.ownerEmail) && RESERVED.test(config.senderEmail);
}

/**
 * Google's test site key passes every captcha and shows a "for testing purposes only" banner: refused
 * unless the owner asks for a trial deploy. Returns the problem naming the key, or none.
 */
export function trialProblems(config: PortfolioConfig): string[] {
  // A preview is a trial by nature: Google's test key is its default.
  if (config.stage || config.trial || !usesTestRecaptcha(config)) return [];
  return [
    `${CONFIG_CONTEXT_KEY}.recaptchaSiteKey: "${RECAPTCHA_TEST_SITE_KEY}" is Google's public test key, the one used ` +
      'when the key is absent or null (every captcha passes, visitors see a test banner). Put your own site key ' +
      'and store its secret in SSM, or ask for a trial ' +
      `deploy: npm run deploy -- --trial (or "trial": true in the ${CONFIG_CONTEXT_KEY} block).`,
  ];
}

/**
 * Google's test site key: the stack then stores Google's public test secret in a parameter of its own
 * (deleted with the stack), so no one ever has to put a test secret into a real one.
 */
export function usesTestRecaptcha(config: Pick<PortfolioConfig, 'recaptchaSiteKey'>): boolean {
  return config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY;
}

/** What a deploy with Google's test key tells the owner: nothing to store, and which parameter stays untouched. */
export function trialNotice(config: PortfolioConfig): string | undefined {
  if (!usesTestRecaptcha(config)) return undefined;
  const untouched = config.recaptchaSecretParameter
    ? ` The SSM parameter ${config.recaptchaSecretParameter} is neither read nor changed.`
    : '';
  return (
    `${config.stage ? `Preview ${config.stage}` : 'Trial deploy'}: the site uses Google's public test reCAPTCHA key, ` +
    "so every captcha passes and visitors see Google's test banner. The stack keeps Google's public test secret " +
    `in an SSM parameter of its own, deleted with the stack: there is nothing to store.${untouched}`
  );
}

/**
 * Extra checks before a real deploy (npm run deploy): the example values that make offline synth work
 * must be replaced, and the test site key needs a trial. Returns problems naming the key; empty when ready.
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
  return [...problems, ...trialProblems(config)];
}

/** The override context keys present in a context lookup (cdk's -c values arrive as strings). */
export function contextOverrides(get: (key: string) => unknown): Record<string, unknown> {
  const overrides: Record<string, unknown> = {};
  for (const [name, contextKey] of Object.entries(CONTEXT_OVERRIDES)) {
    const value = get(contextKey);
    if (value !== undefined) overrides[name] = value;
  }
  return overrides;
}

/** The block with overrides applied; a missing block stays missing so the error says so. */
export function withOverrides(raw: unknown, overrides: Record<string, unknown>): unknown {
  const isRecord = typeof raw === 'object' && raw !== null && !Array.isArray(raw);
  return isRecord && Object.keys(overrides).length > 0 ? { ...raw, ...overrides } : raw;
}

/**
 * The configuration the CDK app synthesizes, from its context: the block with the scripts' overrides.
 * A plain `npx cdk deploy` runs only the app, so Google's test site key is refused here too unless the
 * owner asked for a trial. The shipped example (example.com addresses, which `npm run deploy` refuses)
 * is exempt: it exists to synthesize offline.
 */
export function configFromContext(get: (key: string) => unknown): PortfolioConfig {
  const config = parseConfig(withOverrides(get(CONFIG_CONTEXT_KEY), contextOverrides(get)));
  const problems = isShippedExample(config) ? [] : trialProblems(config);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** Reads and checks the "portfolio" block of a cdk.json file, with the scripts' overrides (stage, trial, siteUrl). */
export function loadConfigFromCdkJson(file: string = scriptConfigFile(), overrides: Record<string, unknown> = {}): PortfolioConfig {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new ConfigError([`${file}: cannot be read as JSON (${(error as Error).message})`]);
  }
  const context = (json as { context?: Record<string, unknown> } | null)?.context;
  return parseConfig(withOverrides(context?.[CONFIG_CONTEXT_KEY], overrides));
}
