import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readPostTitles } from './post-titles';
import { scratchDir } from '../../tools/scratch';

const FIXTURES = path.resolve(import.meta.dirname, '../../web/test/fixtures/posts');

describe('readPostTitles (the stack hands these to the events function)', () => {
  const root = scratchDir('post-titles-');

  it('reads the default language posts titles, leaving drafts and other languages out', () => {
    cpSync(FIXTURES, path.join(root, 'web/content'), { recursive: true });
    writeFileSync(path.join(root, 'web/content/posts/no-title.md'), '---\ndescription: x\n---\nText\n');
    // Invalid YAML (an unquoted second ": "): left to the build's check, which names it; npm run dev starts.
    writeFileSync(path.join(root, 'web/content/posts/unquoted.md'), '---\ntitle: Tips: one\n---\nText\n');
    expect(readPostTitles(root)).toEqual(['A Post in English Only', 'Writing on the Site Itself']);
  });

  it('is empty when the site has no posts folder', () => {
    expect(readPostTitles(path.join(root, 'missing'))).toEqual([]);
  });
});
