/**
 * The language codes reCAPTCHA's widget accepts as `hl`, as Google lists them (Google Cloud, "Language
 * codes for reCAPTCHA", https://cloud.google.com/recaptcha/docs/language, read 2026-11-29). Google spells
 * a few its own way: Hebrew is `iw` (not `he`), Norwegian `no` (not `nb`), Filipino `fil`, Latin-American
 * Spanish `es-419`.
 */
export const RECAPTCHA_LANGUAGE_CODES: ReadonlySet<string> = new Set(
  (
    'ar af am hy az eu bn bg ca zh-HK zh-CN zh-TW hr cs da nl en-GB en et fil fi fr fr-CA gl ka de de-AT de-CH el gu iw hi hu ' +
    'is id it ja kn ko lo lv lt ms ml mr mn no fa pl pt pt-BR pt-PT ro ru sr si sk sl es es-419 sw sv ta te th tr uk ur vi zu'
  ).split(' '),
);

/** Language tags Google lists under another code. */
const GOOGLE_SPELLING: Record<string, string> = { he: 'iw', nb: 'no', nn: 'no', tl: 'fil' };

/** The reCAPTCHA codes for a language tag's language, to suggest when its line names none Google knows. */
export function recaptchaCodesFor(tag: string): string[] {
  const language = tag.toLowerCase().split('-')[0]!;
  const google = GOOGLE_SPELLING[language];
  if (google) return [google];
  return [...RECAPTCHA_LANGUAGE_CODES].filter((code) => code.toLowerCase().split('-')[0] === language);
}
