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

export interface PersonJsonLd {
  '@type': 'Person';
  name: string;
  jobTitle: string;
  description: string;
  url: string;
  image: string;
  sameAs: string[];
}

/**
 * The page that presents the owner: /about a ProfilePage, /home a WebPage, the owner its mainEntity.
 * The page's language sits on the page: schema.org's inLanguage belongs to CreativeWork (WebPage is
 * one), Event and a few actions, not to Person (https://schema.org/inLanguage). ProfilePage with a
 * Person as mainEntity: Google Search Central, "Profile page (ProfilePage) structured data",
 * https://developers.google.com/search/docs/appearance/structured-data/profile-page
 */
export interface OwnerPageJsonLd {
  '@context': 'https://schema.org';
  '@type': 'ProfilePage' | 'WebPage';
  url: string;
  inLanguage: string;
  mainEntity: PersonJsonLd;
}

export interface ProjectJsonLd {
  '@context': 'https://schema.org';
  '@type': 'CreativeWork' | 'SoftwareSourceCode';
  name: string;
  description: string;
  url: string;
  keywords: string;
  author: { '@type': 'Person'; name: string; url: string };
  codeRepository?: string;
  image?: string;
  inLanguage: string;
}

/** The owner's public profiles: each link of the content that points at another site about them. */
function ownerProfiles({ site }: LocaleBundle['catalogue']): string[] {
  return [site.profileUrl, site.clientBlogsUrl].filter((url) => /^https?:\/\//.test(url));
}

/** A page's language and the content its owner is described by, the tagline included (built at build time only). */
export type OwnerOfPage = { locale: string; catalogue: LocaleBundle['catalogue'] & Pick<Catalogue, 'siteHead'> };

export function personJsonLd(bundle: OwnerOfPage): PersonJsonLd {
  const { site, siteHead } = bundle.catalogue;
  return {
    '@type': 'Person',
    name: site.name,
    jobTitle: site.role,
    description: siteHead.tagline,
    url: absoluteUrl(localizePath(bundle.locale, '/about')),
    image: absoluteUrl(site.headshot),
    sameAs: ownerProfiles(bundle.catalogue),
  };
}

/** `path` is /about (the owner's profile page) or /home. */
export function ownerPageJsonLd(path: '/about' | '/home', bundle: OwnerOfPage): OwnerPageJsonLd {
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
export function projectJsonLd(project: Project, repository: string | undefined, bundle: LocaleBundle): ProjectJsonLd {
  const { site } = bundle.catalogue;
  const data: ProjectJsonLd = {
    '@context': 'https://schema.org',
    '@type': repository ? 'SoftwareSourceCode' : 'CreativeWork',
    name: project.title,
    description: `${project.solution} ${project.description}`,
    url: absoluteUrl(localizePath(bundle.locale, pathOf('project', project.id))),
    keywords: project.tech,
    author: { '@type': 'Person', name: site.name, url: absoluteUrl(localizePath(bundle.locale, '/about')) },
    inLanguage: bundle.locale,
  };
  if (repository) data.codeRepository = repository;
  if (project.poster) data.image = absoluteUrl(project.poster);
  return data;
}

/**
 * An on-site post: schema.org BlogPosting (https://schema.org/BlogPosting; Google's "Article structured
 * data", https://developers.google.com/search/docs/appearance/structured-data/article, names headline,
 * image, datePublished, dateModified and author).
 */
export interface BlogPostingJsonLd {
  '@context': 'https://schema.org';
  '@type': 'BlogPosting';
  headline: string;
  description: string;
  url: string;
  mainEntityOfPage: string;
  image: string;
  datePublished: string;
  dateModified: string;
  keywords: string[];
  inLanguage: string;
  author: { '@type': 'Person'; name: string; url: string };
}

export function blogPostingJsonLd(
  /** `image`: the absolute address of the page's preview image, drawn at build time (routes/og-png.ts). */
  post: { slug: string; title: string; description: string; published: string; updated?: string; tags: readonly string[]; image: string },
  bundle: LocaleBundle,
): BlogPostingJsonLd {
  const { site } = bundle.catalogue;
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
    author: { '@type': 'Person', name: site.name, url: absoluteUrl(localizePath(bundle.locale, '/about')) },
  };
}

export type JsonLd = OwnerPageJsonLd | ProjectJsonLd | BlogPostingJsonLd;

// Defined in seo.ts, which the browser loads: this module (and the page table it reads) stays at build time.
export { jsonLd } from './seo';
