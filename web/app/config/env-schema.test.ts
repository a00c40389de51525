import { describe, expect, it } from 'vitest';
import { RECAPTCHA_TEST_SITE_KEY } from '../../../contract/settings';
import { owner } from '../../content/site';
import { defineWebEnv, parseBuildEnv } from './env-schema';

describe('parseBuildEnv: the build variables the browser reads, and their defaults', () => {
  it('falls back to the documented defaults', () => {
    expect(parseBuildEnv({}).web).toEqual({
      contactEndpoint: '/api/contact',
      eventsEndpoint: '/api/events',
      recaptchaSiteKey: RECAPTCHA_TEST_SITE_KEY,
      gaMeasurementId: '',
      siteUrl: owner.siteUrl.replace(/\/+$/, ''),
    });
  });

  it("checks VITE_SITE_URL at build time and puts it before the content's siteUrl", () => {
    expect(parseBuildEnv({ VITE_SITE_URL: ' https://www.example.dev/ ' }).web.siteUrl).toBe('https://www.example.dev');
    expect(() => parseBuildEnv({ VITE_SITE_URL: 'www.example.dev' })).toThrow(/Site URL must be an absolute/);
  });

  it('treats blank values as unset and trims the rest', () => {
    expect(
      parseBuildEnv({
        VITE_CONTACT_ENDPOINT: '  ',
        VITE_EVENTS_ENDPOINT: ' https://api.example.com/events ',
        VITE_GA_MEASUREMENT_ID: ' G-AB12CD34EF ',
      }).web,
    ).toMatchObject({
      contactEndpoint: '/api/contact',
      eventsEndpoint: 'https://api.example.com/events',
      gaMeasurementId: 'G-AB12CD34EF',
    });
  });

  it.each([
    ['VITE_CONTACT_ENDPOINT', 'api/contact'],
    ['VITE_CONTACT_ENDPOINT', '//evil.example.com/contact'],
    ['VITE_CONTACT_ENDPOINT', 'javascript:alert(1)'],
    ['VITE_EVENTS_ENDPOINT', 'ftp://example.com/events'],
    ['VITE_GA_MEASUREMENT_ID', 'UA-12345-1'],
    ['VITE_GA_MEASUREMENT_ID', 'G-'],
    ['VITE_GA_MEASUREMENT_ID', 'g-ab12cd34ef'],
    ['VITE_RECAPTCHA_SITE_KEY', 'short'],
    ['VITE_RECAPTCHA_SITE_KEY', 'has spaces in the key 1234567890'],
  ])('rejects %s=%j with a message naming it', (name, value) => {
    expect(() => parseBuildEnv({ [name]: value })).toThrow(name);
  });
});

describe('VITE_MESSAGE_RETENTION_DAYS: what the privacy policy states, never shipped to the browser', () => {
  it("defaults to 365 and takes the deploy's value", () => {
    expect(parseBuildEnv({}).pageFacts).toEqual({ messageRetentionDays: 365, logRetentionDays: 30 });
    expect(parseBuildEnv({ VITE_MESSAGE_RETENTION_DAYS: ' 30 ' }).pageFacts).toEqual({ messageRetentionDays: 30, logRetentionDays: 30 });
    expect(parseBuildEnv({ VITE_LOG_RETENTION_DAYS: '90' }).pageFacts.logRetentionDays).toBe(90);
    expect(() => parseBuildEnv({ VITE_LOG_RETENTION_DAYS: 'a month' })).toThrow(/VITE_LOG_RETENTION_DAYS must be a whole number/);
    expect(parseBuildEnv({ VITE_MESSAGE_RETENTION_DAYS: '3650' }).pageFacts.messageRetentionDays).toBe(3650);
    expect(parseBuildEnv({ VITE_MESSAGE_RETENTION_DAYS: '30' }).web).not.toHaveProperty('messageRetentionDays');
  });

  it.each(['0', '3651', '30.5', '-7', 'a year'])('rejects %j, naming the variable', (value) => {
    expect(() => parseBuildEnv({ VITE_MESSAGE_RETENTION_DAYS: value })).toThrow(
      `VITE_MESSAGE_RETENTION_DAYS must be a whole number of days from 1 to 3650; got "${value}".`,
    );
  });
});

describe('defineWebEnv for a preview build', () => {
  it('sends no beacon and loads no analytics (empty events endpoint and measurement id); the rest as given', () => {
    const source = { VITE_GA_MEASUREMENT_ID: 'G-AB12CD34EF', VITE_SITE_URL: 'https://d2.cloudfront.net' };
    const live = JSON.parse(defineWebEnv(source).__WEB_ENV__!);
    const preview = JSON.parse(defineWebEnv(source, true).__WEB_ENV__!);
    expect(live).toMatchObject({ eventsEndpoint: '/api/events', gaMeasurementId: 'G-AB12CD34EF' });
    expect(preview).toEqual({ ...live, eventsEndpoint: '', gaMeasurementId: '' });
  });
});
