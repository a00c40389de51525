// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { localeDeclarationProblems } from './check';
import { LOCALES, LOCALE_CODES, localeDirection, textDirection } from './locales';

/** Languages written right to left, with the tags an owner would give them, and a few that are not. */
const RIGHT_TO_LEFT = ['ar', 'ar-EG', 'ar-SA', 'he', 'he-IL', 'fa', 'fa-IR', 'ur', 'ur-PK', 'ps', 'ckb', 'sd', 'ug', 'yi', 'dv', 'syr', 'az-Arab', 'pa-Arab'];
const LEFT_TO_RIGHT = ['en', 'en-US', 'es-ES', 'fr', 'de', 'ru', 'el', 'hi', 'ja', 'zh-Hant', 'ko', 'th', 'tr', 'az', 'ku', 'uz-Latn'];

type TextInfoLocale = Intl.Locale & { getTextInfo?: () => { direction: string } };

describe("a language's direction, from the locale's own data", () => {
  it.each(RIGHT_TO_LEFT)('%s is right to left', (tag) => {
    expect(textDirection(tag)).toBe('rtl');
  });

  it.each(LEFT_TO_RIGHT)('%s is left to right', (tag) => {
    expect(textDirection(tag)).toBe('ltr');
  });

  it("agrees with Intl.Locale's text info, which Node has, for every tag above", () => {
    for (const tag of [...RIGHT_TO_LEFT, ...LEFT_TO_RIGHT]) {
      expect((new Intl.Locale(tag) as TextInfoLocale).getTextInfo?.().direction, tag).toBe(textDirection(tag));
    }
  });

  it("gives the same answer where an engine has no text info (older releases): the tag's likely script", () => {
    const proto = Intl.Locale.prototype as TextInfoLocale;
    const getTextInfo = Object.getOwnPropertyDescriptor(proto, 'getTextInfo');
    const textInfo = Object.getOwnPropertyDescriptor(proto, 'textInfo');
    const expected = [...RIGHT_TO_LEFT, ...LEFT_TO_RIGHT].map((tag) => [tag, textDirection(tag)]);
    try {
      delete (proto as { getTextInfo?: unknown }).getTextInfo;
      delete (proto as { textInfo?: unknown }).textInfo;
      expect(typeof (new Intl.Locale('ar') as TextInfoLocale).getTextInfo).toBe('undefined');
      expect([...RIGHT_TO_LEFT, ...LEFT_TO_RIGHT].map((tag) => [tag, textDirection(tag)])).toEqual(expected);
    } finally {
      if (getTextInfo) Object.defineProperty(proto, 'getTextInfo', getTextInfo);
      if (textInfo) Object.defineProperty(proto, 'textInfo', textInfo);
    }
  });

  it("gives each of the site's languages a direction from its intl tag unless its line declares one", () => {
    for (const code of LOCALE_CODES) expect(localeDirection(code)).toBe(textDirection(LOCALES[code].intl));
    expect(localeDirection('en')).toBe('ltr');
    expect(localeDirection('es')).toBe('ltr');
  });

  it("accepts an optional dir of 'ltr' or 'rtl' on a language's line, and names any other value", () => {
    const line = { name: 'Kurdî', ogLocale: 'ku_TR', intl: 'ku', captcha: 'tr', fallback: { loading: '…' } };
    expect(localeDeclarationProblems({ en: LOCALES.en, ku: { ...line, dir: 'ltr' } })).toEqual([]);
    expect(localeDeclarationProblems({ en: LOCALES.en, ku: { ...line, dir: 'down' } })).toEqual([
      "web/content/locales.ts: ku.dir must be 'ltr' or 'rtl' (or left out: the language's own data gives it)",
    ]);
    expect(localeDeclarationProblems({ en: LOCALES.en, ku: line })).toEqual([]);
  });
});
