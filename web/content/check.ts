/**
 * Build-time check of every language's content against the default language's: the type-check
 * catches a missing or extra field; this catches what types cannot see (a project or article
 * missing, a link or date that differs, an empty text). Each problem names the locale and the key.
 */
import { catalogue as english } from './catalogue';
import { DEFAULT_LOCALE, LOCALE_CODES } from './locales';
import type { Catalogue } from './types';

/** The language's catalogue module (its layout route too, see web/app/routes.ts). */
export async function loadCatalogue(locale: string): Promise<Catalogue> {
  if (locale === DEFAULT_LOCALE) return english;
  let module: { catalogue?: Catalogue };
  try {
    module = (await import(`./${locale}/index.ts`)) as { catalogue?: Catalogue };
  } catch (error) {
    throw new Error(`Locale "${locale}" is declared in web/content/locales.ts but web/content/${locale}/index.ts cannot be loaded: ${(error as Error).message}`);
  }
  if (!module.catalogue) throw new Error(`web/content/${locale}/index.ts must export its catalogue as \`catalogue\`.`);
  return module.catalogue;
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

/** What differs from the default language in ways the pages cannot live with; empty when nothing. */
export function catalogueProblems(locale: string, catalogue: Catalogue, base: Catalogue = english): string[] {
  const problems: string[] = [];
  sameKeys(base.ui, catalogue.ui, 'ui.', locale, problems);
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

/** Loads and checks every declared language; throws one error listing every problem. */
export async function checkAllCatalogues(locales: readonly string[] = LOCALE_CODES): Promise<void> {
  const problems: string[] = [];
  for (const locale of locales) problems.push(...catalogueProblems(locale, await loadCatalogue(locale)));
  if (problems.length > 0) throw new Error(`The content of some languages is incomplete:\n  - ${problems.join('\n  - ')}`);
}
