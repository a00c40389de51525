/**
 * The build variables, read and checked in one place (design §2). Vite inlines them at build time.
 */

/** Google's public reCAPTCHA v2 test key: always passes, shows a warning banner in the widget. */
export const RECAPTCHA_TEST_SITE_KEY = '6LeIxAcTAAAAAJcZVRqyHh9G0Ru7j7xz8H5kOhK1';

function read(name: string, fallback: string): string {
  const value = (import.meta.env as Record<string, string | undefined>)[name];
  return value === undefined || value.trim() === '' ? fallback : value.trim();
}

export const env = {
  contactEndpoint: read('VITE_CONTACT_ENDPOINT', '/api/contact'),
  eventsEndpoint: read('VITE_EVENTS_ENDPOINT', '/api/events'),
  recaptchaSiteKey: read('VITE_RECAPTCHA_SITE_KEY', RECAPTCHA_TEST_SITE_KEY),
  /** Empty: analytics never load. */
  gaMeasurementId: read('VITE_GA_MEASUREMENT_ID', ''),
} as const;
