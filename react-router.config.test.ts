import { describe, expect, it, vi } from 'vitest';
import { projectPageEvent } from './contract/page-events';
import { projects } from './web/content/projects';

// A clashing fixture in place of the owner's projects: two titles that give one GA4 event name.
vi.mock('./web/content/projects', async (importOriginal) => {
  const original = await importOriginal<typeof import('./web/content/projects')>();
  const [first, second, ...rest] = original.projects;
  return { ...original, projects: [first, { ...second!, title: `${first!.title}!` }, ...rest] };
});

const { default: config } = await import('./react-router.config');

describe('the build (react-router.config.ts prerender)', () => {
  it('stops before prerendering when two projects would share a Google Analytics page event', async () => {
    const prerender = config.prerender as () => Promise<string[]>;
    // Whatever the owner's first title is, the second now repeats it with a "!".
    const title = projects[0]!.title;
    await expect(prerender()).rejects.toThrow(
      `project 2 ("${title}!") and project 1 ("${title}") share the GA4 event name "${projectPageEvent(title)}"`,
    );
  });
});
