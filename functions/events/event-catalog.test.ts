import { describe, expect, it } from 'vitest';
import { blogs } from '../../web/content/blogs';
import { projects } from '../../web/content/projects';
import { apiEvent, lambdaContext, RecordingLogger, RecordingMetrics } from '../shared/test-support';
import { isValidEventName } from '../shared/event-names';
import { OTHER_EVENT, siteEventNames } from './event-catalog';
import { createEventsHandler } from './handler';

describe('the catalog of click events the site sends (spec §7)', () => {
  const names = siteEventNames();

  it('holds the fixed names, one per menu entry, four per project and one per article', () => {
    for (const name of [
      'SIDEBAR_NAV_PROJECTS',
      'SIDEBAR_NAV_ABOUT',
      'SIDEBAR_NAV_CONTACT',
      'SIDEBAR_NAV_BLOGS',
      'SIDEBAR_LINKEDIN_CLICK',
      'HOME_EXPLORE_PROJECTS_CLICK',
      'BLOGS_CLIENT_BLOGS',
    ]) {
      expect(names).toContain(name);
    }
    expect(names.size).toBe(4 + 3 + projects.length * 4 + blogs.length);
  });

  it('derives project and article names from the content', () => {
    const first = projects[0]!;
    const slug = first.title.toUpperCase().replace(/[^A-Z0-9]+/g, '_').replace(/^_|_$/g, '');
    expect(names).toContain(`PROJECT_VIEW_${slug}`);
    expect(names).toContain(`PROJECTS_GITHUB_${slug}`);
    expect([...names].filter((n) => n.startsWith('BLOG_READ_'))).toHaveLength(blogs.length);
  });

  it('only holds names the events API accepts', () => {
    for (const name of names) expect(isValidEventName(name), name).toBe(true);
  });
});

describe('events handler with the catalog', () => {
  const send = (name: string) =>
    apiEvent({ path: '/api/events', body: JSON.stringify({ name }), headers: { 'content-type': 'application/json' } });

  it('counts a known name under its own dimension and any other well-formed name as OTHER_EVENT', async () => {
    const metrics = new RecordingMetrics();
    const logger = new RecordingLogger();
    const handler = createEventsHandler({ logger, metrics, knownNames: siteEventNames() });
    expect((await handler(send('SIDEBAR_NAV_ABOUT'), lambdaContext())).statusCode).toBe(204);
    expect((await handler(send('MADE_UP_NAME_42'), lambdaContext())).statusCode).toBe(204);
    expect(metrics.counts).toEqual([
      { name: 'ClickEvent', dimensions: { EventName: 'SIDEBAR_NAV_ABOUT' } },
      { name: 'ClickEvent', dimensions: { EventName: OTHER_EVENT } },
    ]);
  });
});
