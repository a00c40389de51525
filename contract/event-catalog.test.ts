import { describe, expect, it } from 'vitest';
import { isValidEventName } from './event-names';
import { POST_TITLES_MAX_BYTES, postTitlesEnvironment, postTitlesFromEnvironment, siteEventNames } from './event-catalog';

// Content of the test's own: the owner's may hold anything.
const projects = [{ title: 'Hotel Booking Manager' }, { title: 'Café & Co. — "Menus"!' }, { title: '3D Printer Shop' }];
const blogs = [{ title: 'Writing Tests' }, { title: 'Ñandú notes' }];
const CONTENT = { projects, blogs };

describe('the catalog of click events the site sends (menu, profile link, home button, projects, blogs)', () => {
  const names = siteEventNames(CONTENT);

  it('holds the fixed names (the search result among them), one per menu entry, four per project and one per article', () => {
    for (const name of [
      'SIDEBAR_NAV_PROJECTS',
      'SIDEBAR_NAV_ABOUT',
      'SIDEBAR_NAV_CONTACT',
      'SIDEBAR_NAV_BLOGS',
      'SIDEBAR_LINKEDIN_CLICK',
      'HOME_EXPLORE_PROJECTS_CLICK',
      'BLOGS_CLIENT_BLOGS',
      'SEARCH_RESULT_OPEN',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.size).toBe(4 + 4 + projects.length * 4 + blogs.length);
  });

  it('derives project and article names from the content', () => {
    const first = projects[0]!;
    const slug = first.title
      .toUpperCase()
      .replace(/[^A-Z0-9]+/g, '_')
      .replace(/^_|_$/g, '');
    expect(names).toContain(`PROJECT_VIEW_${slug}`);
    expect(names).toContain(`PROJECTS_GITHUB_${slug}`);
    expect([...names].filter((n) => n.startsWith('BLOG_READ_'))).toHaveLength(blogs.length);
  });

  it('only holds names the events API accepts', () => {
    for (const name of names) expect(isValidEventName(name), name).toBe(true);
  });
});

describe('the on-site posts in the catalog (their titles come in from the function environment)', () => {
  it('knows a post card click, BLOG_READ_{TITLE}, once the titles are given', () => {
    expect(siteEventNames(CONTENT)).not.toContain('BLOG_READ_WRITING_ON_THE_SITE_ITSELF');
    expect(siteEventNames(CONTENT, ['Writing on the Site Itself'])).toContain('BLOG_READ_WRITING_ON_THE_SITE_ITSELF');
  });

  it('carries the titles through the environment and back, and reads a missing or broken value as none', () => {
    const titles = ['Writing on the Site Itself', 'Ñandú "quoted"'];
    expect(postTitlesFromEnvironment(postTitlesEnvironment(titles))).toEqual(titles);
    expect(postTitlesFromEnvironment({})).toEqual([]);
    expect(postTitlesFromEnvironment({ POST_EVENT_TITLES: '{not json' })).toEqual([]);
    expect(postTitlesFromEnvironment({ POST_EVENT_TITLES: '[1,"A"]' })).toEqual(['A']);
  });

  it('stops synth when the titles would not fit in the function environment', () => {
    const many = Array.from({ length: 100 }, (_, i) => `A fairly long post title number ${i}`);
    expect(JSON.stringify(many).length).toBeGreaterThan(POST_TITLES_MAX_BYTES);
    expect(() => postTitlesEnvironment(many)).toThrow(/over the 3500 the events function/);
  });
});
