import type { MetaDescriptor } from 'react-router';
import { patternOfPath, SITE_PAGES } from '../../../contract/site-routes';
import { loadCatalogue } from '../../content/check';
import { localeDirection } from '../../content/locales';
import { localeOfPath, unlocalizePath } from '../i18n/paths';
import { siteUrl } from '../layout/site-url';
import type { Preview } from './card';

/*
 * What a page's preview card shows, from the page's own data: its route module's loader and `meta` run
 * as the prerender runs them, in the page's language, so the card has the title and description the page
 * states (never read back from the written HTML).
 */

interface PageModule {
  loader?: (args: { request: Request; params: Record<string, string>; context: unknown }) => unknown;
  meta?: (args: { loaderData: unknown; matches: { handle: unknown }[]; params: Record<string, string>; location: { pathname: string } }) => MetaDescriptor[];
}

// The route modules (the server build has them all already).
const PAGE_MODULES = import.meta.glob<PageModule>(['../routes/*.tsx', '!../routes/*.test.tsx'], { eager: true });

/** The parameters of a path under its pattern: ('/blogs/:slug', '/blogs/hello') → { slug: 'hello' }. */
function paramsOf(pattern: string, path: string): Record<string, string> {
  const segments = path.split('/').filter(Boolean);
  return Object.fromEntries(pattern.split('/').filter(Boolean).flatMap((part, i) => (part.startsWith(':') ? [[part.slice(1), decodeURIComponent(segments[i] ?? '')]] : [])));
}

/** The preview card of one page (a path with its language prefix: /es/projects/3). */
export async function previewOfPage(pagePath: string): Promise<Preview> {
  const locale = localeOfPath(pagePath);
  const path = unlocalizePath(pagePath);
  const page = SITE_PAGES.find((p) => p.pattern === patternOfPath(path))!;
  const module = PAGE_MODULES[`../${page.module}`];
  if (!module) throw new Error(`No route module ${page.module} for the preview of ${pagePath}.`);
  const catalogue = await loadCatalogue(locale);
  const params = paramsOf(page.pattern, path);
  const request = new Request(new URL(pagePath, 'http://localhost'));
  const loaderData = module.loader ? await module.loader({ request, params, context: {} }) : undefined;
  const matches = [{ handle: { localeBundle: { locale, catalogue } } }];
  const tags = module.meta?.({ loaderData, matches, params, location: { pathname: pagePath } }) ?? [];
  const content = (key: string) => (tags.find((tag) => ('property' in tag && tag.property === key) || ('name' in tag && tag.name === key)) as { content?: string } | undefined)?.content;
  const { site, pages, ui } = catalogue;
  const isHome = page.pattern === '/home';
  const fullTitle = content('og:title') ?? site.name;
  const suffix = ` | ${site.name}`;
  return {
    image: new URL(content('og:image') ?? '', 'http://localhost').pathname,
    // The home page's kicker and a project's say what the card is.
    kicker: isHome ? ui.home.previewKicker : page.kind === 'project' ? ui.project.previewKicker : '',
    // The home page's title is "{name} | {role}": its preview leads with the home headline instead.
    title: isHome ? pages.home.headline : fullTitle.endsWith(suffix) ? fullTitle.slice(0, -suffix.length) : fullTitle,
    description: content('og:description') ?? site.tagline,
    host: /^https?:\/\//.test(siteUrl) ? new URL(siteUrl).host : '',
    name: site.name,
    role: site.role,
    ...(localeDirection(locale) === 'rtl' ? { dir: 'rtl' as const } : {}),
  };
}
