import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RECAPTCHA_SITE_KEY_PATTERN, RECAPTCHA_TEST_SECRET, RECAPTCHA_TEST_SITE_KEY } from './settings';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SETTINGS = path.join('contract', 'settings.ts');
/** Generated or installed trees; everything else in the repository is the project's own. */
const SKIP = new Set(['node_modules', '.git', 'build', 'cdk.out', '.react-router', 'coverage', '.bench']);
const CODE = /\.(ts|tsx|js|mjs|cjs|json|html|ya?ml|sh)$|^run$/;

function codeFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) ? [] : codeFiles(full);
    return CODE.test(entry.name) ? [path.relative(ROOT, full)] : [];
  });
}

describe("Google's reCAPTCHA v2 test keys", () => {
  it('are the pair published in the reCAPTCHA FAQ (fingerprint taken when the FAQ was read)', () => {
    // The two values cannot be checked against Google offline. This fingerprint of the pair, taken
    // when they were compared with the FAQ (the address beside them), fails on any edit to either:
    // re-read the FAQ before changing it. The site key once differed from the FAQ's and nothing noticed.
    const fingerprint = createHash('sha256').update(`${RECAPTCHA_TEST_SITE_KEY} ${RECAPTCHA_TEST_SECRET}`).digest('hex');
    expect(fingerprint).toBe('15be1abb0f1eb839273fb245088879e16bc09c8e757de3c3bab8f08f6be76fb3');
    // The published pair: one key id (the shared prefix), a public site key, a different secret.
    expect(RECAPTCHA_TEST_SITE_KEY).toMatch(RECAPTCHA_SITE_KEY_PATTERN);
    expect(RECAPTCHA_TEST_SITE_KEY.slice(0, 13)).toBe(RECAPTCHA_TEST_SECRET.slice(0, 13));
    expect(RECAPTCHA_TEST_SITE_KEY).not.toBe(RECAPTCHA_TEST_SECRET);
  });

  it('are written once, in contract/settings.ts, and imported by every other file, tests included', () => {
    const settings = readFileSync(path.join(ROOT, SETTINGS), 'utf8');
    expect(settings).toContain('https://developers.google.com/recaptcha/docs/faq');
    // Any string starting with the pair's key id: catches a copy, and a mistyped or stale one too.
    const keyId = RECAPTCHA_TEST_SECRET.slice(0, 13);
    const copies = codeFiles(ROOT)
      .filter((file) => file !== SETTINGS)
      .filter((file) => readFileSync(path.join(ROOT, file), 'utf8').includes(keyId));
    expect(copies).toEqual([]);
  });
});
