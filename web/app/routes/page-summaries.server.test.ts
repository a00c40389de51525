// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { SITE_PAGES } from '../../../contract/site-routes';
import { loadCatalogue } from '../../content/check';
import { meta as notFoundMeta } from './not-found';
import { PAGE_SUMMARIES, pageOf, summaryOf, summaryOfPath } from './page-summaries.server';

describe('page summaries', () => {
  it('has one per pattern of the page table, in its order', () => {
    expect(Object.keys(PAGE_SUMMARIES)).toEqual(SITE_PAGES.map((page) => page.pattern));
  });

  it('gives a fixed page its pattern as its path, a content page the path of its entity', async () => {
    expect((await summaryOfPath('/es/contact')).path).toBe('/contact');
    const project = await summaryOfPath('/es/projects/3');
    const spanish = await loadCatalogue('es');
    expect(project).toMatchObject({
      path: '/projects/3',
      title: spanish.projects.find((p) => p.id === 3)!.title,
      kicker: spanish.headUi.project.previewKicker,
      type: 'article',
    });
    await expect(summaryOfPath('/projects/42')).rejects.toThrow('No page at /projects/42.');
  });

  it("is what the not-found page's head says, though that head is written in the browser", async () => {
    for (const locale of ['en', 'es']) {
      const page = await pageOf(locale);
      const { title, description } = summaryOf('*', page, undefined);
      const tags = notFoundMeta({ location: { pathname: '/nowhere' }, matches: [{ handle: { localeBundle: page } }] });
      expect(tags).toContainEqual({ property: 'og:title', content: `${title} | ${page.catalogue.site.name}` });
      expect(tags).toContainEqual({ name: 'description', content: description });
    }
  });
});
