import { describe, expect, it } from 'vitest';
import { baseUrl } from './support/browser';
import { KNOWN_ROUTES } from './support/site';

/** The prerendered HTML of a route, as a crawler or link-preview bot reads it (no script runs). */
async function html(route: string): Promise<string> {
  const response = await fetch(`${baseUrl()}${route}`);
  expect(response.status, route).toBe(200);
  return response.text();
}

function decode(text: string): string {
  return text
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** Every `<meta property|name="key" content="…">` value of the page, in order. */
function metas(page: string, key: string): string[] {
  const values: string[] = [];
  for (const [, attributes = ''] of page.matchAll(/<meta\b([^>]*)>/g)) {
    if (/\b(?:property|name)="([^"]*)"/.exec(attributes)?.[1] !== key) continue;
    const content = /\bcontent="([^"]*)"/.exec(attributes)?.[1];
    if (content !== undefined) values.push(decode(content));
  }
  return values;
}

function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  expect(String.fromCharCode(...bytes.subarray(1, 4))).toBe('PNG');
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('link previews', () => {
  it('give every route its own 1200×630 image, referenced with its size and alt text', async () => {
    const images = new Set<string>();
    for (const route of KNOWN_ROUTES) {
      const page = await html(route);
      const [image, ...more] = metas(page, 'og:image');
      expect(more, route).toEqual([]);
      expect(image, route).toMatch(/^https?:\/\/[^/]+\/og\/[a-z0-9-]+\.png$/);
      expect(metas(page, 'twitter:image'), route).toEqual([image]);
      expect(metas(page, 'twitter:card'), route).toEqual(['summary_large_image']);
      expect(metas(page, 'og:image:width'), route).toEqual(['1200']);
      expect(metas(page, 'og:image:height'), route).toEqual(['630']);
      const [alt] = metas(page, 'og:image:alt');
      expect(alt, route).toMatch(/Alex Example/);
      expect(metas(page, 'twitter:image:alt'), route).toEqual([alt]);
      images.add(image!);

      // The site serves the image it references (the deployed host is swapped for the local stack).
      const response = await fetch(`${baseUrl()}${new URL(image!).pathname}`);
      expect(response.status, image).toBe(200);
      expect(response.headers.get('content-type'), image).toMatch(/^image\/png/);
      expect(pngSize(new Uint8Array(await response.arrayBuffer())), image).toEqual({ width: 1200, height: 630 });
    }
    expect(images.size).toBe(KNOWN_ROUTES.length);
  });
});

/** The JSON-LD blocks of a page, parsed. */
function jsonLd(page: string): Record<string, unknown>[] {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    ([, text = '']) => JSON.parse(text) as Record<string, unknown>,
  );
}

describe('structured data', () => {
  it.each([
    ['/home', 'WebPage'],
    ['/about', 'ProfilePage'],
  ])('%s describes the owner as a Person, the main entity of a %s in its language', async (route, type) => {
    const blocks = jsonLd(await html(route));
    expect(blocks).toHaveLength(1);
    const owner = blocks[0]!;
    expect(owner['@context']).toBe('https://schema.org');
    expect(owner['@type']).toBe(type);
    expect(owner.url).toMatch(new RegExp(`^https?://.+${route}$`));
    // inLanguage is a property of the page (a CreativeWork), never of the Person (schema.org/inLanguage).
    expect(owner.inLanguage).toBe('en');
    const person = owner.mainEntity as Record<string, unknown>;
    expect(person['@type']).toBe('Person');
    expect(person).not.toHaveProperty('inLanguage');
    expect(person.name).toBe('Alex Example');
    expect(person.jobTitle).toEqual(expect.any(String));
    expect(person.url).toMatch(/^https?:\/\/.+\/about$/);
    expect(person.sameAs).toEqual(expect.arrayContaining([expect.stringMatching(/^https:\/\//)]));
  });

  it.each([1, 2, 3, 4, 5])('/projects/%i describes the project, with its repository when the page shows one', async (id) => {
    const page = await html(`/projects/${id}`);
    const blocks = jsonLd(page);
    expect(blocks).toHaveLength(1);
    const work = blocks[0]!;
    const title = /<h1[^>]*>([^<]*)<\/h1>/.exec(page)?.[1];
    expect(work.name).toBe(title && decode(title));
    expect(work.description).toEqual(expect.any(String));
    expect(work.url).toMatch(new RegExp(`^https?://.+/projects/${id}$`));
    const githubLink = /href="(https:\/\/github\.com\/[^"]+)"/.exec(page)?.[1];
    if (githubLink) {
      expect(work['@type']).toBe('SoftwareSourceCode');
      expect(work.codeRepository).toBe(githubLink);
    } else {
      expect(work['@type']).toBe('CreativeWork');
      expect(work).not.toHaveProperty('codeRepository');
    }
  });

  it('keeps "<" out of the JSON so a text can never close the script element', async () => {
    for (const route of ['/home', '/projects/1']) {
      for (const [, text = ''] of (await html(route)).matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)) {
        expect(text).not.toContain('<');
      }
    }
  });
});
