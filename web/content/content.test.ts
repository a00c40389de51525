// @vitest-environment node
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkPageEvents, isValidGa4EventName, PAGE_EVENTS, pageEventProblems, projectPageEvent } from '../../contract/page-events';
import { about } from './about';
import { blogs } from './blogs';
import { funFacts } from './fun-facts';
import { privacyPolicy } from './privacy-policy';
import { findProject, projects } from './projects';
import { site } from './site';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const publicFile = (path: string) => join(publicDir, path);

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
const isRealDate = (date: string) => ISO_DATE.test(date) && new Date(`${date}T00:00:00Z`).toISOString().slice(0, 10) === date;

// Guards for the owner's edits, whatever they write: the fields every page needs and the files the
// content points at. How many projects, articles or fun facts there are is the owner's to choose.
describe('content', () => {
  it('has projects with distinct positive whole ids and the fields every page needs', () => {
    expect(projects.length).toBeGreaterThan(0);
    expect(new Set(projects.map((p) => p.id)).size).toBe(projects.length);
    for (const p of projects) {
      expect(Number.isInteger(p.id) && p.id > 0, `project ${p.id}: an id is a whole number from 1`).toBe(true);
      for (const field of ['title', 'tech', 'problem', 'solution', 'description'] as const) expect(p[field].trim(), `project ${p.id}: ${field}`).not.toBe('');
      for (const link of [p.site, p.github].filter(Boolean)) expect(link, `project ${p.id}: a link`).toMatch(/^https:\/\//);
    }
  });

  it("points each project's video and poster at files that exist, a poster with every video", () => {
    for (const p of projects.filter((project) => project.url)) {
      for (const file of [p.url, p.webm, p.poster].filter(Boolean)) expect(existsSync(publicFile(file)), `project ${p.id}: ${file}`).toBe(true);
      expect(p.poster, `project ${p.id}: a video needs its poster`).not.toBe('');
    }
  });

  it("gives each project a valid Google Analytics page event of its own, as the build's check asks", () => {
    const names = projects.map((p) => projectPageEvent(p.title));
    for (const name of names) expect(isValidGa4EventName(name), name).toBe(true);
    expect(new Set([...names, ...Object.values(PAGE_EVENTS)]).size).toBe(names.length + Object.keys(PAGE_EVENTS).length);
    expect(pageEventProblems(projects)).toEqual([]);
    expect(() => checkPageEvents(projects)).not.toThrow();
  });

  it('finds a project only by a plain numeric id', () => {
    const id = projects[0]!.id;
    expect(findProject(String(id))?.id).toBe(id);
    const unknown = String(Math.max(...projects.map((p) => p.id)) + 1);
    for (const bad of [undefined, '', '0', unknown, `0${id}`, `${id}.0`, `${id}abc`, ` ${id}`, `-${id}`]) expect(findProject(bad), String(bad)).toBeUndefined();
  });

  it('has articles with addresses and real dates, fun facts, and a policy with sections and a real date', () => {
    expect(new Set(blogs.map((b) => b.id)).size).toBe(blogs.length);
    for (const b of blogs) {
      expect(b.url, b.title).toMatch(/^https:\/\//);
      expect(isRealDate(b.published), `${b.title}: published ${b.published} is a date written YYYY-MM-DD`).toBe(true);
      expect(Number.isInteger(b.minutes) && b.minutes > 0, `${b.title}: minutes`).toBe(true);
    }
    expect(funFacts.length).toBeGreaterThan(0);
    expect(privacyPolicy.sections.length).toBeGreaterThan(0);
    for (const section of privacyPolicy.sections) expect(section.heading.trim()).not.toBe('');
    expect(isRealDate(privacyPolicy.lastUpdated), `privacy policy: lastUpdated ${privacyPolicy.lastUpdated}`).toBe(true);
  });

  it('has the about groups filled in and complete education entries', () => {
    for (const group of [about.technologies, about.tools, about.practices]) expect(group.split(',').every((item) => item.trim() !== '')).toBe(true);
    for (const entry of about.education) for (const field of ['title', 'school', 'years'] as const) expect(entry[field].trim(), `education: ${field}`).not.toBe('');
  });

  it('points at images that exist', () => {
    for (const file of [site.headshot, ...(site.resume ? [site.resume] : [])]) expect(existsSync(publicFile(file)), file).toBe(true);
  });
});
