import { describe, expect, it, vi } from 'vitest';

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
    await expect(prerender()).rejects.toThrow(/project 2 \("Hotel Booking Manager!"\) and project 1 \("Hotel Booking Manager"\) share the GA4 event name "Hotel_Booking_Manager"/);
  });
});
