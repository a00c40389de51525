import { DEFAULT_LOCALE } from '../../content/locales';

/*
 * The owner's fun facts, every language's, in the fun-fact modal's own chunk: they are shown only once
 * the modal opens, so no page's first load carries them. A language added by copying a content folder
 * brings its fun-facts.ts, found here by the same pattern.
 */
const FACTS = import.meta.glob<readonly string[]>(['../../content/fun-facts.ts', '../../content/*/fun-facts.ts'], {
  eager: true,
  import: 'funFacts',
});

/** The fun facts of one of the site's languages. */
export function funFactsOf(locale: string): readonly string[] {
  const file = locale === DEFAULT_LOCALE ? '../../content/fun-facts.ts' : `../../content/${locale}/fun-facts.ts`;
  const facts = FACTS[file];
  if (!facts)
    throw new Error(`No fun facts for "${locale}": web/content/${locale === DEFAULT_LOCALE ? '' : `${locale}/`}fun-facts.ts is missing.`);
  return facts;
}

/** Picks one fact; `random` is drawn at each opening, so each opening may show another fact. */
export function pickFunFact(facts: readonly string[], random: () => number = Math.random): string {
  if (facts.length === 0) throw new Error('There must be at least one fun fact in web/content/fun-facts.ts.');
  const index = Math.min(facts.length - 1, Math.floor(random() * facts.length));
  return facts[index] as string;
}
