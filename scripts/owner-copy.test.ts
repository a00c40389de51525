import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyWholeProject, makeOwnersContent } from './owner-copy';

// The copy `npm run test:owner-copy` runs the unit tests in: proved to be what it says, so a green run
// means the tests passed on someone else's content, not on an edit that silently did nothing.
describe("the owner's copy", () => {
  const copy = copyWholeProject();
  afterAll(() => rmSync(copy, { recursive: true, force: true }));
  const read = (file: string) => readFileSync(path.join(copy, 'web/content', file), 'utf8');

  it('adds French and Hebrew, a post in every language tagged in its script, a sixth project and a fourth article, and replaces the texts', () => {
    makeOwnersContent(copy);
    expect(read('locales.ts')).toMatch(/\n\s+fr: \{ name: 'Français'.*\n\s+he: \{ name: 'עברית'.*captcha: 'iw'/);
    expect(read('he/index.ts')).toContain("locale: 'he'");
    expect(read('he/posts/or-rishon.md')).toContain('tags: [רשימות-שדה]');
    expect(read('fr/posts/premiere-lumiere.md')).toContain('tags: [carnet-été]');
    for (const folder of ['', 'es/', 'fr/', 'he/']) {
      expect(existsSync(path.join(copy, 'web/content', folder, 'posts')), folder).toBe(true);
      expect(read(`${folder}projects.ts`), folder).toMatch(/id: 6,/);
      expect(read(`${folder}blogs.ts`), folder).toMatch(/id: 4,/);
      expect(read(`${folder}site.ts`), folder).not.toContain('Alex Example');
      expect(read(`${folder}pages.ts`), folder).not.toMatch(/headline: 'I build fast|headline: 'Creo aplicaciones/);
    }
    // The project's node_modules, shared; the checkout's own state (.local, web/build) left behind.
    expect(existsSync(path.join(copy, 'node_modules/vitest'))).toBe(true);
    expect(existsSync(path.join(copy, '.local'))).toBe(false);
  });
});
