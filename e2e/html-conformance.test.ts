/**
 * Every prerendered page of the build under test is conforming HTML: 0 errors from the check of
 * tools/html-conformance.ts (html-validate, standard preset), the pages exactly as uploaded.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { htmlErrors } from '../tools/html-conformance';
import { KNOWN_ROUTES } from './support/site';

describe('HTML conformance', () => {
  it('every built page has 0 errors', async () => {
    const clientDir = inject('clientDir');
    const pages = readdirSync(clientDir, { recursive: true, encoding: 'utf8' })
      .filter((name) => name.endsWith('.html'))
      .sort();
    // Each route's page, plus "/" and the 404 fallback: an empty or partial build fails here.
    expect(pages.length).toBeGreaterThanOrEqual(KNOWN_ROUTES.length + 2);
    const errors: string[] = [];
    for (const name of pages) errors.push(...(await htmlErrors(readFileSync(path.join(clientDir, name), 'utf8'), name)));
    expect(errors, errors.join('\n')).toEqual([]);
  });
});
