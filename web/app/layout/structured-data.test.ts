import { describe, expect, it } from 'vitest';
import { projects } from '../../content/projects';
import { site } from '../../content/site';
import { loader as aboutLoader, meta as aboutMeta } from '../routes/about';
import { loader as homeLoader, meta as homeMeta } from '../routes/home';
import { loader as projectLoader, meta as projectMeta } from '../routes/project-detail';
import type { Route } from '../routes/+types/project-detail';
import { siteUrl } from './seo';
import { jsonLd, ownerPageJsonLd, personJsonLd, projectJsonLd } from './structured-data';
import { english, englishMatches } from '../../test/render';
import { catalogue as spanish } from '../../content/es/index';
import { catalogue as englishCatalogue } from '../../content/catalogue';

/** The English pages' language and content as a page's loader has it (the tagline is built into the page). */
const englishPage = { locale: 'en', catalogue: englishCatalogue };

type Descriptor = Record<string, unknown>;

/** The JSON-LD blocks of a page's meta, as the browser would parse them back from the page. */
function jsonLdBlocks(tags: Descriptor[]): Record<string, unknown>[] {
  return tags
    .filter((tag) => 'script:ld+json' in tag)
    .map((tag) => JSON.parse(JSON.stringify(tag['script:ld+json'])) as Record<string, unknown>);
}

describe('Person', () => {
  it('names the owner, the role, the about page and the profiles, from the content', () => {
    const person = personJsonLd(englishPage);
    expect(person).toMatchObject({
      '@type': 'Person',
      name: site.name,
      jobTitle: site.role,
      url: `${siteUrl}/about`,
    });
    expect(person.sameAs).toEqual([site.profileUrl, site.clientBlogsUrl]);
    // schema.org's inLanguage is not a property of Person: the language is the page's.
    expect(person).not.toHaveProperty('inLanguage');
  });

  it.each([
    ['home', homeLoader, homeMeta, 'WebPage', '/home'],
    ['about', aboutLoader, aboutMeta, 'ProfilePage', '/about'],
  ] as const)('is the main entity of the %s page, which carries the language, once', async (_name, loader, meta, type, path) => {
    // Built by the page's loader at build time; the page's meta writes it into the head.
    const loaderData = await loader({ request: new Request(`http://localhost${path}`) });
    const blocks = jsonLdBlocks(meta({ loaderData, matches: englishMatches } as never) as Descriptor[]);
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toEqual({
      '@context': 'https://schema.org',
      '@type': type,
      url: `${siteUrl}${path}`,
      inLanguage: 'en',
      mainEntity: personJsonLd(englishPage),
    });
  });

  it('puts a Spanish page in Spanish, the person being the same', () => {
    const bundle = { ...english, locale: 'es', catalogue: spanish };
    expect(ownerPageJsonLd('/about', bundle)).toMatchObject({ '@type': 'ProfilePage', url: `${siteUrl}/es/about`, inLanguage: 'es' });
    expect(ownerPageJsonLd('/about', bundle).mainEntity).not.toHaveProperty('inLanguage');
  });
});

describe('project pages', () => {
  const metaOf = async (id: number) => {
    const params = { projectId: String(id) };
    const loaderData = await projectLoader({ request: new Request(`http://localhost/projects/${id}`), params } as Route.LoaderArgs);
    return projectMeta({ params, loaderData, matches: englishMatches } as unknown as Route.MetaArgs) as Descriptor[];
  };

  it.each(projects.map((p) => [p.id, p] as const))('project %i has one block with name, description and url', async (id, project) => {
    const blocks = jsonLdBlocks(await metaOf(id));
    expect(blocks).toHaveLength(1);
    const block = blocks[0]!;
    expect(block.name).toBe(project.title);
    expect(block.description).toEqual(expect.stringContaining(project.solution));
    expect(block.url).toBe(`${siteUrl}/projects/${id}`);
    // Project 4's code belongs to the client: the page shows no repository, nor does its data.
    if (id !== 4 && project.github) {
      expect(block['@type']).toBe('SoftwareSourceCode');
      expect(block.codeRepository).toBe(project.github);
    } else {
      expect(block['@type']).toBe('CreativeWork');
      expect(block).not.toHaveProperty('codeRepository');
    }
  });

  it('is a CreativeWork without a repository', () => {
    const project = { ...projects[0]!, github: '' };
    expect(projectJsonLd(project, undefined, english)['@type']).toBe('CreativeWork');
    expect(projectJsonLd(project, 'https://github.com/x/y', english)).toMatchObject({
      '@type': 'SoftwareSourceCode',
      codeRepository: 'https://github.com/x/y',
    });
  });
});

it('renders as a JSON-LD script descriptor for React Router', () => {
  expect(jsonLd(ownerPageJsonLd('/home', englishPage))).toEqual({ 'script:ld+json': ownerPageJsonLd('/home', englishPage) });
});
