import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_ROUTES } from './api-routes';
import { ARCHIVE_ID_MESSAGE_TAG } from './archive';
import { API_GATEWAY_HTTP_INTEGRATION_TIMEOUT_MS, CONTACT_TIMEOUTS_MS, SES_MESSAGE_TAG_PATTERN } from './limits';

describe('time budgets against API Gateway', () => {
  it('every Lambda stops before the HTTP API gives up on it, so a slow call ends in our answer, not a gateway 503', () => {
    for (const route of API_ROUTES) {
      expect(route.timeoutSeconds * 1000, route.routeKey).toBeLessThan(API_GATEWAY_HTTP_INTEGRATION_TIMEOUT_MS);
    }
  });

  it("the contact request's own budget ends before its Lambda's timeout", () => {
    const contact = API_ROUTES.find((route) => route.name === 'contact')!;
    expect(CONTACT_TIMEOUTS_MS.total).toBeLessThan(contact.timeoutSeconds * 1000);
    expect(CONTACT_TIMEOUTS_MS.verify + CONTACT_TIMEOUTS_MS.ses).toBeLessThanOrEqual(CONTACT_TIMEOUTS_MS.total);
  });
});

describe('SES message tags', () => {
  it('the archive id tag and its value (a UUID) are what SES accepts', () => {
    expect(ARCHIVE_ID_MESSAGE_TAG).toMatch(SES_MESSAGE_TAG_PATTERN);
    expect(randomUUID()).toMatch(SES_MESSAGE_TAG_PATTERN);
  });

  it('refuses what SES refuses: other characters, empty, over 256', () => {
    for (const bad of ['', 'a.b', 'a b', 'user@example.com', 'x'.repeat(257)]) expect(bad).not.toMatch(SES_MESSAGE_TAG_PATTERN);
    expect('x'.repeat(256)).toMatch(SES_MESSAGE_TAG_PATTERN);
  });
});
