// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { funFacts as english } from '../../content/fun-facts';
import { funFacts as spanish } from '../../content/es/fun-facts';
import { LOCALE_CODES } from '../../content/locales';
import { funFactsOf } from './fun-facts';

describe('funFactsOf', () => {
  it("finds each language's own facts", () => {
    expect(funFactsOf('en')).toBe(english);
    expect(funFactsOf('es')).toBe(spanish);
    for (const code of LOCALE_CODES) expect(funFactsOf(code).length).toBeGreaterThan(0);
  });

  it('names the missing file for a language without one', () => {
    expect(() => funFactsOf('xx')).toThrow('web/content/xx/fun-facts.ts is missing');
  });
});
