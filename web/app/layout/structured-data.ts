import { pathOf } from '../../../contract/site-routes';
import type { Catalogue, Project } from '../../content/types';
import type { LocaleBundle } from '../i18n/locale-context';
import { localizePath } from '../i18n/paths';
import { absoluteUrl } from './site-url';

/**
 * Schema.org JSON-LD built from the content, so search engines can show the owner and the projects
 * as entities. React Router's <Meta> writes a `script:ld+json` descriptor as
 * <script type="application/ld+json"> and escapes `<`, `>` and `&` in the JSON: a data block the
 * browser never executes, so the Content-Security-Policy does not apply to it.
 */

/** The owner's public profiles: each link of the content that points at another site about them. */
function ownerProfiles({ site }: LocaleBundle['catalogue']): string[] {
  return [site.profileUrl, site.clientBlogsUrl].filter((url) => /^https?:\/\//.test(url));
}

/** A page's language and the content its owner is described by, the tagline included (built at build time only). */
export type OwnerOfPage = { locale: string; catalogue: LocaleBundle['catalogue'] & Pick<Catalogue, 'siteHead'> };

/** The owner's profile page, the address that names them as an author. */
const aboutUrl = (bundle: LocaleBundle) => absoluteUrl(localizePath(bundle.locale, '/about'));

export function personJsonLd(bundle: OwnerOfPage) {
  const { site, siteHead } = bundle.catalogue;
  return {
    '@type': 'Person',
    name: site.name,
    jobTitle: site.role,
    description: siteHead.tagline,
    url: aboutUrl(bundle),
    image: absoluteUrl(site.headshot),
    sameAs: ownerProfiles(bundle.catalogue),
  };
}

/**
 * The page that presents the owner: /about a ProfilePage, /home a WebPage, the owner its mainEntity.
 * The page's language sits on the page: schema.org's inLanguage belongs to CreativeWork (WebPage is
 * one), Event and a few actions, not to Person (https://schema.org/inLanguage). ProfilePage with a
 * Person as mainEntity: Google Search Central, "Profile page (ProfilePage) structured data",
 * https://developers.google.com/search/docs/appearance/structured-data/profile-page
 */
export function ownerPageJsonLd(path: '/about' | '/home', bundle: OwnerOfPage) {
  return {
    '@context': 'https://schema.org',
    '@type': path === '/about' ? 'ProfilePage' : 'WebPage',
    url: absoluteUrl(localizePath(bundle.locale, path)),
    inLanguage: bundle.locale,
    mainEntity: personJsonLd(bundle),
  };
}

/**
 * A project as SoftwareSourceCode when its repository is public (`repository` given), else as a
 * CreativeWork. The page decides which repository it shows, so this says the same.
 */
export function projectJsonLd(project: Project, repository: string | undefined, bundle: LocaleBundle) {
  return {
    '@context': 'https://schema.org',
    '@type': repository ? 'SoftwareSourceCode' : 'CreativeWork',
    name: project.title,
    description: `${project.solution} ${project.description}`,
    url: absoluteUrl(localizePath(bundle.locale, pathOf('project', project.id))),
    keywords: project.tech,
    author: author(bundle),
    inLanguage: bundle.locale,
    ...(repository ? { codeRepository: repository } : {}),
    ...(project.poster ? { image: absoluteUrl(project.poster) } : {}),
  };
}

/** The owner as the author of a project or a post. */
function author(bundle: LocaleBundle) {
  return { '@type': 'Person', name: bundle.catalogue.site.name, url: aboutUrl(bundle) };
}

/**
 * An on-site post: schema.org BlogPosting (https://schema.org/BlogPosting; Google's "Article structured
 * data", https://developers.google.com/search/docs/appearance/structured-data/article, names headline,
 * image, datePublished, dateModified and author).
 */
export function blogPostingJsonLd(
  /** `image`: the absolute address of the page's preview image, drawn at build time (routes/og-png.ts). */
  post: { slug: string; title: string; description: string; published: string; updated?: string; tags: readonly string[]; image: string },
  bundle: LocaleBundle,
) {
  const path = localizePath(bundle.locale, pathOf('post', post.slug));
  return {
    '@context': 'https://schema.org',
    '@type': 'BlogPosting',
    headline: post.title,
    description: post.description,
    url: absoluteUrl(path),
    mainEntityOfPage: absoluteUrl(path),
    image: post.image,
    datePublished: post.published,
    dateModified: post.updated ?? post.published,
    keywords: [...post.tags],
    inLanguage: bundle.locale,
    author: author(bundle),
  };
}

export type JsonLd = ReturnType<typeof ownerPageJsonLd | typeof projectJsonLd | typeof blogPostingJsonLd>;

// Defined in seo.ts, which the browser loads: this module (and the page table it reads) stays at build time.
export { jsonLd } from './seo';
