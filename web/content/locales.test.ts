// @vitest-environment node
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { catalogue as english } from './catalogue';
import { RECAPTCHA_LANGUAGE_CODES } from './recaptcha-languages';
import { catalogueProblems, checkAllCatalogues, CONTENT_WARNING, loadCatalogue, localeDeclarationProblems, localeModuleProblems, untranslatedLocales } from './check';
import { catalogue as spanish } from './es';
import { DEFAULT_LOCALE, LOCALE_CODES, LOCALES } from './locales';
import type { Catalogue } from './types';
import { scratchDir } from '../../tools/scratch';

const here = path.dirname(fileURLToPath(import.meta.url));

/**
 * Type-checks copies of es/ui.ts, each changed by one edit and placed in a folder named like the
 * locale (case/es/ui.ts), in one program; returns tsc's messages per case.
 */
function typecheckSpanishUi(edits: Record<string, (source: string) => string>): Record<string, string[]> {
  const root = scratchDir('ui-keys-');
  const source = readFileSync(path.join(here, 'es', 'ui.ts'), 'utf8').replace("from '../types'", `from '${path.join(here, 'types')}'`);
  const files = Object.entries(edits).map(([name, edit]) => {
    const dir = path.join(root, name, 'es');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'ui.ts'), edit(source));
    return [name, path.join(dir, 'ui.ts')] as const;
  });
  const program = ts.createProgram(
    files.map(([, file]) => file),
    { strict: true, noEmit: true, skipLibCheck: true, types: [], target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler },
  );
  const messages = ts.getPreEmitDiagnostics(program).map((d) => ({
    file: d.file?.fileName ?? '',
    text: `${d.file?.fileName ?? ''}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
  }));
  return Object.fromEntries(files.map(([name, file]) => [name, messages.filter((m) => m.file === file).map((m) => m.text)]));
}

describe('languages', () => {
  it('declares English as the default and names each language in itself', () => {
    expect(DEFAULT_LOCALE).toBe('en');
    expect(LOCALE_CODES[0]).toBe('en');
    expect(LOCALES.en.name).toBe('English');
    expect(LOCALES.es.name).toBe('Español');
  });

  it('has every language complete: the build-time check finds nothing', async () => {
    const warned: string[] = [];
    // Resolves (a problem would throw). A language still being translated is the owner's to finish: the
    // build warns (tested below) and nothing stops.
    const warnings = await checkAllCatalogues(LOCALE_CODES, (line) => warned.push(line));
    expect(warned).toEqual(warnings.map((line) => `${CONTENT_WARNING} ${line}`));
    for (const line of warnings) expect(line).toMatch(/ still has the texts of /);
    expect(localeDeclarationProblems()).toEqual([]);
    expect(catalogueProblems('es', spanish)).toEqual([]);
    expect(await loadCatalogue('es')).toBe(spanish);
  });

  it('names the locale and the key of what is missing, extra, empty or out of step', () => {
    const broken: Catalogue = {
      ...spanish,
      ui: { ...spanish.ui, contact: { ...spanish.ui.contact, sent: '' }, extra: 'x' } as unknown as Catalogue['ui'],
      projects: spanish.projects.slice(0, 4).map((p, i) => (i === 0 ? { ...p, site: 'https://elsewhere.example' } : p)),
      blogs: spanish.blogs.map((b, i) => (i === 1 ? { ...b, minutes: 9 } : b)),
      funFacts: spanish.funFacts.slice(1),
      // The retention written as a fixed number: the deploy's setting would not reach this page.
      privacyPolicy: {
        ...spanish.privacyPolicy,
        sections: spanish.privacyPolicy.sections.map((section, i) => (i === 1 ? { ...section, paragraphs: ['365 días', 'x'] } : section)),
      },
    };
    const { skipLink: _dropped, ...withoutSkipLink } = broken.ui;
    const problems = catalogueProblems('es', { ...broken, ui: withoutSkipLink as Catalogue['ui'] });
    expect(problems).toEqual(
      expect.arrayContaining([
        'es: ui.skipLink is missing',
        'es: ui.extra is not a key of the default language',
        'es: ui.contact.sent is empty',
        `es: projects has ids [${spanish.projects.slice(0, 4).map((p) => p.id).join(',')}], the default language [${english.projects.map((p) => p.id).join(',')}]`,
        'es: projects[id 1].site differs from the default language',
        'es: blogs[id 2].minutes differs from the default language',
        `es: funFacts has ${spanish.funFacts.length - 1} entries, the default language ${english.funFacts.length}`,
        expect.stringMatching(/^es: privacyPolicy states the configured retention in paragraphs \[[\d., ]*\], the default language in \[[\d., ]+\]$/),
      ]),
    );
  });

  it("holds the policy's revision date to the same rules: one date in every language, real, not before the original", () => {
    const policy = (revised: string) => ({ ...english.privacyPolicy, lastUpdated: '2024-09-27', revised });
    const base = { ...english, privacyPolicy: policy('2026-12-06') };
    expect(catalogueProblems('en', base, base)).toEqual([]);
    expect(catalogueProblems('es', { ...english, privacyPolicy: policy('2026-12-05') }, base)).toEqual(['es: privacyPolicy.revised differs from the default language']);
    const early = { ...english, privacyPolicy: policy('2023-01-01') };
    expect(catalogueProblems('en', early, early)).toEqual(['en: privacyPolicy.revised 2023-01-01 is before lastUpdated 2024-09-27']);
    const unreal = { ...english, privacyPolicy: policy('2026-02-30') };
    expect(catalogueProblems('en', unreal, unreal)).toEqual(['en: privacyPolicy.revised "2026-02-30" is not a real date written YYYY-MM-DD (e.g. 2025-01-15)']);
  });

  it('names a date that is not a real one written YYYY-MM-DD, with the form it takes', () => {
    const blogs = english.blogs.map((b, i) => (i === 0 ? { ...b, published: '2026-13-45' } : b));
    const problems = catalogueProblems('en', { ...english, blogs, privacyPolicy: { ...english.privacyPolicy, lastUpdated: '27/09/2024' } }, { ...english, blogs });
    expect(problems).toEqual([
      'en: privacyPolicy.lastUpdated differs from the default language',
      `en: blogs[id ${english.blogs[0]!.id}].published "2026-13-45" is not a real date written YYYY-MM-DD (e.g. 2025-01-15)`,
      'en: privacyPolicy.lastUpdated "27/09/2024" is not a real date written YYYY-MM-DD (e.g. 2025-01-15)',
    ]);
  });

  it('names a key missing outside the interface strings too, and a missing section (the build does not type-check)', () => {
    const { headline: _gone, ...home } = spanish.pages.home;
    const { projects: _none, ...withoutProjects } = spanish;
    expect(catalogueProblems('fr', { ...spanish, pages: { ...spanish.pages, home } as Catalogue['pages'] })).toEqual(['fr: pages.home.headline is missing']);
    expect(catalogueProblems('fr', withoutProjects as Catalogue)).toEqual(['fr: projects is missing']);
  });

  it("names a copied folder whose index.ts still gives its pages the copied language's locale", async () => {
    expect(await localeModuleProblems('es')).toEqual([]);
    const copied = async () => ({ catalogue: spanish, handle: { localeBundle: { locale: 'es' } } });
    expect(await localeModuleProblems('fr', copied)).toEqual([`fr: web/content/fr/index.ts gives its pages the locale "es"; set \`locale: 'fr'\` in its handle`]);
  });

  it('names the language and the field of a line in locales.ts the build could not use (the build does not type-check)', () => {
    const { en, es } = LOCALES;
    expect(localeDeclarationProblems({ en, es, fr: { name: 'Français', ogLocale: 'fr_FR', intl: 'fr-FR', captcha: 'fr' } })).toEqual([
      expect.stringMatching(/^web\/content\/locales\.ts: fr is missing fallback\.loading \(.*README/),
    ]);
    const problems = localeDeclarationProblems({
      en,
      es,
      'French!': es,
      fr: { ...es, name: '', intl: 'not a tag at all', extra: 'x' },
      de: { ...es, fallback: 'Laden…' },
    });
    expect(problems).toEqual([
      expect.stringMatching(/^web\/content\/locales\.ts: French!: the code must be a language tag/),
      'web/content/locales.ts: fr.name must be a text that is not empty',
      'web/content/locales.ts: fr.extra is not a field of a language (name, ogLocale, intl, captcha, fallback.loading)',
      expect.stringMatching(/^web\/content\/locales\.ts: fr\.intl "not a tag at all" is not a language tag/),
      expect.stringMatching(/^web\/content\/locales\.ts: de is missing fallback\.loading/),
      'web/content/locales.ts: de.fallback is not a field of a language (name, ogLocale, intl, captcha, fallback.loading)',
    ]);
  });

  it('warns, naming both, about a language whose texts are still another language\'s copy (not an error)', async () => {
    // A translated language (every text reworded) whose fun facts are still English: well under half.
    const reword = (value: unknown): unknown =>
      typeof value === 'string' ? `${value} ·` : Array.isArray(value) ? value.map(reword) : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reword(v)])) : value;
    const partly = { ...(reword(spanish) as Catalogue), funFacts: english.funFacts };
    const catalogues = new Map<string, Catalogue>([
      ['en', english],
      ['es', spanish],
      ['fr', spanish], // es/ copied to fr/ and not yet translated
      ['de', english], // the English files copied
      ['it', partly],
    ]);
    const warnings = untranslatedLocales(catalogues);
    expect(warnings).toHaveLength(2);
    // A code is named by its line in locales.ts when the site has one (the owner may have added French).
    const named = (code: string) => `${code} \\(${(LOCALES as Record<string, { name: string } | undefined>)[code]?.name ?? code}\\)`;
    expect(warnings[0]).toMatch(new RegExp(`^${named('fr')} still has the texts of es \\(Español\\): (\\d+) of its \\1 texts are the same.*web/content/fr/`));
    expect(warnings[1]).toMatch(new RegExp(`^${named('de')} still has the texts of en \\(English\\)`));
    expect(untranslatedLocales(new Map([['en', english], ['es', spanish]]))).toEqual([]);
    expect(CONTENT_WARNING).toBe('Content warning:');
  });

  it('fails the type-check on a missing or an extra interface key, naming the locale file and the key', () => {
    const found = typecheckSpanishUi({
      missing: (s) => s.replace(/^\s*skipLink: .*\n/m, ''),
      extra: (s) => s.replace("skipLink: 'Saltar", "skipLinks: 'x',\n  skipLink: 'Saltar"),
      unchanged: (s) => s,
    });
    expect(found.missing?.join('\n')).toMatch(/[/\\]es[/\\]ui\.ts: .*'skipLink' is missing/);
    expect(found.extra?.join('\n')).toMatch(/[/\\]es[/\\]ui\.ts: .*'skipLinks' does not exist in type 'UiMessages'/);
    expect(found.unchanged).toEqual([]);
  }, 180_000);

  it('translates every interface string (what stays the same is a name or a brand)', () => {
    const strings = (value: unknown, key = ''): [string, string][] =>
      typeof value === 'string'
        ? [[key, value]]
        : value && typeof value === 'object'
          ? Object.entries(value).flatMap(([name, item]) => strings(item, key ? `${key}.${name}` : name))
          : [];
    const spanishByKey = new Map(strings(spanish.ui));
    const same = strings(english.ui).filter(([key, text]) => spanishByKey.get(key) === text).map(([key]) => key);
    expect(same).toEqual(['project.github']);
    // Templates too: the same hour, the same name, another language.
    expect(spanish.ui.headshotLabel('Alex')).not.toBe(english.ui.headshotLabel('Alex'));
    expect(spanish.ui.blogs.readLength('4')).toBe('4 min de lectura');
  });
});

describe('languages and reCAPTCHA', () => {
  it("gives every language the code reCAPTCHA knows it by (the contact widget's hl), from Google's list", () => {
    for (const code of LOCALE_CODES) expect(RECAPTCHA_LANGUAGE_CODES.has(LOCALES[code].captcha), `${code}: ${LOCALES[code].captcha}`).toBe(true);
  });

  it("stops the build on a code Google spells otherwise (Hebrew is iw), naming the line and Google's code", () => {
    const { en } = LOCALES;
    const hebrew = { name: 'עברית', ogLocale: 'he_IL', intl: 'he', captcha: 'he', fallback: { loading: 'טוען את הדף…' } };
    expect(localeDeclarationProblems({ en, he: hebrew })).toEqual([
      expect.stringMatching(/^web\/content\/locales\.ts: he\.captcha "he" is not a language code reCAPTCHA knows: use 'iw' \(Google's spelling\)/),
    ]);
    expect(localeDeclarationProblems({ en, he: { ...hebrew, captcha: 'iw' } })).toEqual([]);
    expect(localeDeclarationProblems({ en, pt: { ...hebrew, captcha: 'pt-XX' } })[0]).toContain("use 'pt' or 'pt-BR' or 'pt-PT'");
    expect(localeDeclarationProblems({ en, ku: { ...hebrew, captcha: 'ku' } })[0]).toContain('Google has no widget in that language');
    // A line copied from before the field existed: missing, named like any other field.
    const { captcha: _, ...old } = hebrew;
    expect(localeDeclarationProblems({ en, he: old })[0]).toMatch(/he is missing captcha/);
  });
});
