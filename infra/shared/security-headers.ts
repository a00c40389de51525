/**
 * The security headers of every response, defined once: the CDK stack turns this into the
 * CloudFront response-headers policy, and the local server (infra/local) sets the same values.
 * Both compute them from source alone, never from build output, so a content-only deploy leaves
 * the policy unchanged and no edge can pair a page with a policy from another build.
 */
import { createHash } from 'node:crypto';
import { inlineScripts } from '../../web/boot/generate';

/** The CSP source of an inline script: sha256 of its text as the browser hashes it (UTF-8). */
export function scriptHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** 'sha256-…' of every constant inline script, of its generated text (web/boot/generate.ts), in its order. */
export const INLINE_SCRIPT_HASHES: readonly string[] = inlineScripts().map(scriptHash);

/**
 * Hosts Google's services need, exactly as their CSP guides list them (security-headers.test.ts
 * checks that they admit what the installed react-google-recaptcha and react-ga4 load).
 */
export const THIRD_PARTY_SOURCES = {
  // reCAPTCHA FAQ, "I'm using Content-Security-Policy (CSP) on my website. How can I configure it to work with reCAPTCHA?"
  // https://developers.google.com/recaptcha/docs/faq#im-using-content-security-policy-csp-on-my-website.-how-can-i-configure-it-to-work-with-recaptcha
  recaptchaScripts: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
  recaptchaFrames: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  // "Use Google Tag Manager with a Content Security Policy", section Google Analytics 4:
  // https://developers.google.com/tag-platform/security/guides/csp#google_analytics_4_google_analytics
  // Google signals (a GA4 property setting) would also want *.g.doubleclick.net: left out, measurement works without.
  analyticsScripts: ['https://*.googletagmanager.com'],
  analyticsConnect: ['https://*.google-analytics.com', 'https://*.analytics.google.com', 'https://*.googletagmanager.com'],
  analyticsImages: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
} as const;

export interface CspOptions {
  /** Extra origins the browser may call, e.g. an API on another origin. */
  extraConnectSources?: readonly string[];
  /** Only over HTTPS: a plain-http local server must not ask for upgrades. */
  upgradeInsecureRequests?: boolean;
}

/** The Content-Security-Policy value: no 'unsafe-inline' and no 'unsafe-eval' for scripts. */
export function contentSecurityPolicy(options: CspOptions = {}): string {
  const s = THIRD_PARTY_SOURCES;
  const directives: [string, ...string[]][] = [
    ['default-src', "'self'"],
    ['script-src', "'self'", ...INLINE_SCRIPT_HASHES.map((h) => `'${h}'`), ...s.recaptchaScripts, ...s.analyticsScripts],
    // React's prerendered style attributes and the reCAPTCHA widget set inline styles.
    ['style-src', "'self'", "'unsafe-inline'"],
    ['img-src', "'self'", 'data:', ...s.analyticsImages],
    ['media-src', "'self'"],
    ['font-src', "'self'"],
    ['connect-src', "'self'", ...s.analyticsConnect, ...(options.extraConnectSources ?? [])],
    ['frame-src', ...s.recaptchaFrames],
    ['manifest-src', "'self'"],
    ['worker-src', "'self'"],
    ['object-src', "'none'"],
    ['base-uri', "'self'"],
    ['form-action', "'self'"],
    ['frame-ancestors', "'none'"],
  ];
  if (options.upgradeInsecureRequests) directives.push(['upgrade-insecure-requests']);
  return directives.map((d) => d.join(' ')).join('; ');
}

/** Strict-Transport-Security: two years, subdomains, preload-list eligible. */
export const HSTS = { maxAgeSeconds: 63_072_000, includeSubdomains: true, preload: true } as const;
export const REFERRER_POLICY = 'strict-origin-when-cross-origin';
export const FRAME_OPTIONS = 'DENY';
/** Powerful features the site never uses, switched off for it and anything it embeds. */
export const PERMISSIONS_POLICY =
  'accelerometer=(), autoplay=(), camera=(), display-capture=(), geolocation=(), gyroscope=(), ' +
  'magnetometer=(), microphone=(), midi=(), payment=(), usb=()';
/** Headers without a dedicated field in CloudFront's policy: sent as custom headers. */
export const CUSTOM_HEADERS = {
  'Permissions-Policy': PERMISSIONS_POLICY,
  'Cross-Origin-Opener-Policy': 'same-origin',
} as const;

export function hstsValue(): string {
  return `max-age=${HSTS.maxAgeSeconds}${HSTS.includeSubdomains ? '; includeSubDomains' : ''}${HSTS.preload ? '; preload' : ''}`;
}

/** Every security header as name → value, as a server sets them on each response. */
export function securityHeaders(options: CspOptions = {}): Record<string, string> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(options),
    'Strict-Transport-Security': hstsValue(),
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': FRAME_OPTIONS,
    'Referrer-Policy': REFERRER_POLICY,
    ...CUSTOM_HEADERS,
  };
}
