/**
 * What each API handler writes per request, measured as Lambda runs it (log-bytes.ts): one line
 * for a normal request and one for a refused one, each within the bytes docs/deploy.md's costs use
 * (LOGGED_BYTES), and not far under them (the figure stays what the handler writes).
 */
import { describe, expect, it } from 'vitest';
import { LOGGED_BYTES } from '../../contract/cost-model';
import { measureLoggedBytes } from './log-bytes';

describe('bytes logged per request', async () => {
  const measured = await measureLoggedBytes();
  for (const route of ['contact', 'events', 'vitals'] as const) {
    for (const kind of ['normal', 'refused'] as const) {
      it(`${route}, ${kind}: one line, within the ${LOGGED_BYTES[route][kind]} bytes the costs use`, () => {
        const { bytes, lines } = measured[route][kind];
        expect(lines).toBe(1);
        expect(bytes).toBeLessThanOrEqual(LOGGED_BYTES[route][kind]);
        expect(bytes).toBeGreaterThan(LOGGED_BYTES[route][kind] * 0.85);
      });
    }
  }
});
