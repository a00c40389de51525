/**
 * Build-time check of every language's content against the default language's: the type-check
 * catches a missing or extra field; this catches what types cannot see (a project or article
 * missing, a link or date that differs, an empty text). Each problem names the locale and the key.
 */
import { catalogue as english } from './catalogue';
import { CONTENT_WARNING } from './content-warning';
import { DEFAULT_LOCALE, LOCALE_CODES, LOCALES } from './locales';
import { RECAPTCHA_LANGUAGE_CODES, recaptchaCodesFor } from './recaptcha-languages';
import type { Catalogue } from './types';

export { CONTENT_WARNING };

export interface LocaleModule {
  catalogue?: Catalogue;
  handle?: { localeBundle?: { locale?: unknown } };
}

/** A language's index module, web/content/<code>/index.ts (its layout route too, see web/app/routes.ts). */
async function loadLocaleModule(locale: string): Promise<LocaleModule> {
  try {
    return (await import(`./${locale}/index.ts`)) as LocaleModule;
  } catch (error) {
    throw new Error(`Locale "${locale}" is declared in web/content/locales.ts but web/content/${locale}/index.ts cannot be loaded: ${(error as Error).message}`);
  }
}

/** The language's catalogue module (its layout route too, see web/app/routes.ts). */
export async function loadCatalogue(locale: string): Promise<Catalogue> {
  if (locale === DEFAULT_LOCALE) return english;
  const module = await loadLocaleModule(locale);
  if (!module.catalogue) throw new Error(`web/content/${locale}/index.ts must export its catalogue as \`catalogue\`.`);
  return module.catalogue;
}

/** The fields of a language's line in LOCALES, as dotted paths (fallback.loading), with their values. */
function fieldsOf(value: unknown, key = ''): [string, unknown][] {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    return Object.entries(value).flatMap(([name, item]) => fieldsOf(item, key ? `${key}.${name}` : name));
  }
  return [[key, value]];
}

/**
 * What is wrong with the languages' lines in locales.ts, checked when the build starts: the build
 * does not type-check, so a line without a field the type asks for (e.g. `fallback`) would otherwise
 * fail much later, deep in the prerender, with a message that names neither the file nor the field.
 * Each line must have every field of the default language's line, each a text that is not empty.
 */
export function localeDeclarationProblems(locales: Record<string, unknown> = LOCALES): string[] {
  const problems: string[] = [];
  const expected = fieldsOf(locales[DEFAULT_LOCALE]).map(([key]) => key).filter((key) => key !== 'dir');
  for (const [code, info] of Object.entries(locales)) {
    const where = `web/content/locales.ts: ${code}`;
    if (!/^[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})*$/.test(code)) {
      problems.push(`${where}: the code must be a language tag such as fr or pt-BR (it becomes the folder web/content/${code}/ and the path prefix /${code}/)`);
    }
    const fields = new Map(fieldsOf(info));
    const missing = expected.filter((key) => !fields.has(key));
    if (missing.length > 0) {
      problems.push(`${where} is missing ${missing.join(', ')} (every language's line has the fields of ${DEFAULT_LOCALE}'s: ${expected.join(', ')}; see web/content/README.md)`);
    }
    for (const [key, value] of fields) {
      if (key === 'dir') {
        if (value !== 'ltr' && value !== 'rtl') problems.push(`${where}.dir must be 'ltr' or 'rtl' (or left out: the language's own data gives it)`);
      } else if (!expected.includes(key)) problems.push(`${where}.${key} is not a field of a language (${expected.join(', ')})`);
      else if (typeof value !== 'string' || value.trim() === '') problems.push(`${where}.${key} must be a text that is not empty`);
    }
    const captcha = fields.get('captcha');
    if (typeof captcha === 'string' && captcha.trim() !== '' && !RECAPTCHA_LANGUAGE_CODES.has(captcha)) {
      const codes = recaptchaCodesFor(captcha);
      problems.push(
        `${where}.captcha "${captcha}" is not a language code reCAPTCHA knows` +
          (codes.length > 0 ? `: use ${codes.map((c) => `'${c}'`).join(' or ')} (Google's spelling)` : ': Google has no widget in that language, so name one your visitors read (such as en)') +
          '; Google\'s list: https://cloud.google.com/recaptcha/docs/language',
      );
    }
    if (typeof fields.get('intl') === 'string') {
      try {
        new Intl.DateTimeFormat(fields.get('intl') as string);
      } catch {
        problems.push(`${where}.intl "${String(fields.get('intl'))}" is not a language tag Intl accepts (e.g. fr-FR)`);
      }
    }
  }
  return problems;
}

/** The language a locale folder's index.ts says it is: its handle must name its own folder. */
export async function localeModuleProblems(locale: string, load: (locale: string) => Promise<LocaleModule> = loadLocaleModule): Promise<string[]> {
  if (locale === DEFAULT_LOCALE) return [];
  const said = (await load(locale)).handle?.localeBundle?.locale;
  return said === locale ? [] : [`${locale}: web/content/${locale}/index.ts gives its pages the locale ${JSON.stringify(said)}; set \`locale: '${locale}'\` in its handle`];
}

/** Texts worth comparing between languages: words with a space, not links or paths. */
function translatableTexts(value: unknown, key = '', out = new Map<string, string>()): Map<string, string> {
  if (typeof value === 'string') {
    if (/\p{L}/u.test(value) && value.includes(' ') && !/^(?:https?:|\/)/.test(value)) out.set(key, value);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => translatableTexts(item, `${key}[${i}]`, out));
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) translatableTexts(item, key ? `${key}.${name}` : name, out);
  }
  return out;
}

/** A language counts as another's copy when at least this share of its texts is the other's, word for word. */
export const COPY_SHARE = 0.5;

/**
 * The languages whose texts are still (mostly) another language's, word for word: a folder copied
 * to start a translation and not yet translated. Each language is compared with those declared
 * before it (in the map's order, the default first), so of two identical ones the later is the copy. Names, technologies and the like are the same in
 * every language, but they are a small share (about 7% of the texts between English and Spanish).
 */
export function untranslatedLocales(catalogues: ReadonlyMap<string, Catalogue>): string[] {
  const warnings: string[] = [];
  for (const [locale, catalogue] of catalogues) {
    if (locale === DEFAULT_LOCALE) continue;
    const own = translatableTexts(catalogue);
    let worst: { other: string; same: number } | undefined;
    for (const [other, otherCatalogue] of catalogues) {
      if (other === locale) break; // compared with the languages declared before it: the later one is the copy
      const theirs = translatableTexts(otherCatalogue);
      let same = 0;
      for (const [key, text] of own) if (theirs.get(key) === text) same += 1;
      if (!worst || same > worst.same) worst = { other, same };
    }
    if (worst && own.size > 0 && worst.same / own.size >= COPY_SHARE) {
      warnings.push(
        `${locale} (${localeName(locale)}) still has the texts of ${worst.other} (${localeName(worst.other)}): ${worst.same} of its ${own.size} texts are the same, word for word. ` +
          `Translate web/content/${locale}/ before publishing: until then its pages show ${localeName(worst.other)} text.`,
      );
    }
  }
  return warnings;
}

function localeName(locale: string): string {
  const info = (LOCALES as Record<string, { name?: unknown }>)[locale];
  return typeof info?.name === 'string' ? info.name : locale;
}

/** Fields that may be '' on purpose (no video, no website, no public repository). */
const MAY_BE_EMPTY = new Set(['url', 'webm', 'poster', 'site', 'github']);

function emptyTexts(value: unknown, key: string, out: string[]): void {
  if (typeof value === 'string') {
    if (value.trim() === '' && !MAY_BE_EMPTY.has(key.slice(key.lastIndexOf('.') + 1))) out.push(key);
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => emptyTexts(item, `${key}[${i}]`, out));
  } else if (value && typeof value === 'object') {
    for (const [name, item] of Object.entries(value)) emptyTexts(item, key ? `${key}.${name}` : name, out);
  }
}

function sameKeys(a: object, b: object, key: string, locale: string, problems: string[]): void {
  const left = new Set(Object.keys(a));
  const right = new Set(Object.keys(b));
  for (const name of left) if (!right.has(name)) problems.push(`${locale}: ${key}${name} is missing`);
  for (const name of right) if (!left.has(name)) problems.push(`${locale}: ${key}${name} is not a key of the default language`);
  for (const name of left) {
    const x = (a as Record<string, unknown>)[name];
    const y = (b as Record<string, unknown>)[name];
    if (x && y && typeof x === 'object' && typeof y === 'object' && !Array.isArray(x)) sameKeys(x, y, `${key}${name}.`, locale, problems);
  }
}

/** A calendar date written YYYY-MM-DD (2025-02-30 and 2026-13-45 are not). */
function isRealDate(text: unknown): boolean {
  if (typeof text !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** What differs from the default language in ways the pages cannot live with; empty when nothing. */
export function catalogueProblems(locale: string, catalogue: Catalogue, base: Catalogue = english): string[] {
  const problems: string[] = [];
  // The type-check would catch these too, but the build does not type-check: name them here.
  const missing: string[] = [];
  for (const section of ['ui', 'site', 'pages', 'about', 'privacyPolicy'] as const) {
    if (!catalogue[section] || typeof catalogue[section] !== 'object') missing.push(`${locale}: ${section} is missing`);
    else sameKeys(base[section], catalogue[section], `${section}.`, locale, problems);
  }
  for (const section of ['projects', 'blogs', 'funFacts'] as const) {
    if (!Array.isArray(catalogue[section])) missing.push(`${locale}: ${section} is missing`);
  }
  // Without a whole section the checks below cannot run.
  if (missing.length > 0) return [...missing, ...problems];
  const empty: string[] = [];
  emptyTexts(catalogue, '', empty);
  for (const key of empty) problems.push(`${locale}: ${key} is empty`);

  const ids = (list: readonly { id: number }[]) => list.map((item) => item.id).join(',');
  if (ids(catalogue.projects) !== ids(base.projects)) {
    problems.push(`${locale}: projects has ids [${ids(catalogue.projects)}], the default language [${ids(base.projects)}]`);
  }
  for (const project of base.projects) {
    const other = catalogue.projects.find((p) => p.id === project.id);
    if (!other) continue;
    for (const field of ['url', 'webm', 'poster', 'site', 'github'] as const) {
      if (other[field] !== project[field]) problems.push(`${locale}: projects[id ${project.id}].${field} differs from the default language`);
    }
  }
  if (ids(catalogue.blogs) !== ids(base.blogs)) {
    problems.push(`${locale}: blogs has ids [${ids(catalogue.blogs)}], the default language [${ids(base.blogs)}]`);
  }
  for (const blog of base.blogs) {
    const other = catalogue.blogs.find((b) => b.id === blog.id);
    if (!other) continue;
    for (const field of ['url', 'published', 'minutes'] as const) {
      if (other[field] !== blog[field]) problems.push(`${locale}: blogs[id ${blog.id}].${field} differs from the default language`);
    }
  }
  const counts: [string, number, number][] = [
    ['funFacts', catalogue.funFacts.length, base.funFacts.length],
    ['privacyPolicy.sections', catalogue.privacyPolicy.sections.length, base.privacyPolicy.sections.length],
    ['about.education', catalogue.about.education.length, base.about.education.length],
    ['pages.home.intro', catalogue.pages.home.intro.length, base.pages.home.intro.length],
  ];
  for (const [key, count, expected] of counts) {
    if (count !== expected) problems.push(`${locale}: ${key} has ${count} entries, the default language ${expected}`);
  }
  if (catalogue.privacyPolicy.lastUpdated !== base.privacyPolicy.lastUpdated) {
    problems.push(`${locale}: privacyPolicy.lastUpdated differs from the default language`);
  }
  if (catalogue.privacyPolicy.revised !== base.privacyPolicy.revised) {
    problems.push(`${locale}: privacyPolicy.revised differs from the default language`);
  }
  const { revised, lastUpdated } = catalogue.privacyPolicy;
  if (revised !== undefined && isRealDate(revised) && isRealDate(lastUpdated) && revised < lastUpdated) {
    problems.push(`${locale}: privacyPolicy.revised ${revised} is before lastUpdated ${lastUpdated}`);
  }
  // A date is written YYYY-MM-DD and exists (each page writes it out in its language, which an
  // impossible date would stop with a bare RangeError).
  const dates: [string, string][] = [...catalogue.blogs.map((b): [string, string] => [`blogs[id ${b.id}].published`, b.published]), ['privacyPolicy.lastUpdated', catalogue.privacyPolicy.lastUpdated], ...(revised === undefined ? [] : [['privacyPolicy.revised', revised] as [string, string]])];
  for (const [key, date] of dates) {
    if (!isRealDate(date)) problems.push(`${locale}: ${key} "${date}" is not a real date written YYYY-MM-DD (e.g. 2025-01-15)`);
  }
  // A paragraph written around the configuration (how long messages are kept) in one language must be one in each.
  const configured = (policy: Catalogue['privacyPolicy']) =>
    policy.sections.map((section, i) => section.paragraphs.flatMap((text, j) => (typeof text === 'function' ? [`${i + 1}.${j + 1}`] : []))).flat().join(', ');
  if (configured(catalogue.privacyPolicy) !== configured(base.privacyPolicy)) {
    problems.push(
      `${locale}: privacyPolicy states the configured retention in paragraphs [${configured(catalogue.privacyPolicy)}], ` +
        `the default language in [${configured(base.privacyPolicy)}]`,
    );
  }
  return problems;
}

/**
 * Checks the languages' lines in locales.ts, then loads and checks every declared language; throws one
 * error listing every problem. A language still copied from another is not an error: it is printed
 * as a warning (each line starting with CONTENT_WARNING) and returned.
 */
export async function checkAllCatalogues(
  locales: readonly string[] = LOCALE_CODES,
  warn: (line: string) => void = (line) => console.warn(line),
): Promise<string[]> {
  const declared = localeDeclarationProblems();
  if (declared.length > 0) throw new Error(`The languages in web/content/locales.ts are not complete:\n  - ${declared.join('\n  - ')}`);
  const problems: string[] = [];
  const catalogues = new Map<string, Catalogue>();
  for (const locale of locales) {
    problems.push(...(await localeModuleProblems(locale)));
    const catalogue = await loadCatalogue(locale);
    catalogues.set(locale, catalogue);
    problems.push(...catalogueProblems(locale, catalogue));
  }
  if (problems.length > 0) throw new Error(`The content of some languages is incomplete:\n  - ${problems.join('\n  - ')}`);
  const warnings = untranslatedLocales(catalogues);
  for (const warning of warnings) warn(`${CONTENT_WARNING} ${warning}`);
  return warnings;
}
