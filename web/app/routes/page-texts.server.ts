import { loadCatalogue } from '../../content/check';
import { LOCALE_CODES } from '../../content/locales';
import type { PolicyFacts, WrittenPrivacyPolicy } from '../../content/types';
import { pageTextId } from '../components/PageText';
import { pageFacts } from '../config/page-facts';
import { writePolicy } from './page-summaries.server';

/*
 * The page texts (components/PageText.tsx) of every language, as HTML: each project card's need and
 * solution, and the privacy policy's sections. Built once per build by the server entry and
 * written into the prerendered pages only.
 */

const ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text as HTML: every character that could start markup or end an attribute is escaped, as React does. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character]!);
}

/** The policy's sections as the page shows them: a heading, its paragraphs and its list, if any. */
export function policyHtml(policy: WrittenPrivacyPolicy): string {
  return policy.sections
    .map((section) => {
      const paragraphs = section.paragraphs.map((paragraph) => `<p>${escapeHtml(paragraph)}</p>`).join('');
      const list = section.list ? `<ul>${section.list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>` : '';
      return `<section><h2>${escapeHtml(section.heading)}</h2>${paragraphs}${list}</section>`;
    })
    .join('');
}

let made: Promise<Map<string, string>> | undefined;

export function pageTexts(facts: PolicyFacts = pageFacts): Promise<Map<string, string>> {
  const make = async () => {
    const texts = new Map<string, string>();
    for (const locale of LOCALE_CODES) {
      const { projects, privacyPolicy } = await loadCatalogue(locale);
      for (const project of projects) {
        for (const field of ['problem', 'solution'] as const)
          texts.set(pageTextId(locale, 'projects', project.id, field), escapeHtml(project[field]));
      }
      texts.set(pageTextId(locale, 'privacy-policy'), policyHtml(writePolicy(privacyPolicy, facts)));
    }
    return texts;
  };
  if (facts !== pageFacts) return make();
  made ??= make();
  return made;
}
