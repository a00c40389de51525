// @vitest-environment node
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { about } from './about';
import { blogs } from './blogs';
import { funFacts } from './fun-facts';
import { privacyPolicy } from './privacy-policy';
import { findProject, projects } from './projects';
import { site } from './site';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'public');
const publicFile = (path: string) => join(publicDir, path);

// Guards for the owner's edits: the fixed counts (five projects, three articles, five fun facts, …) and the files the content points at.
describe('content', () => {
  it('has five projects with ids 1 to 5 and the fields every page needs', () => {
    expect(projects.map((p) => p.id)).toEqual([1, 2, 3, 4, 5]);
    for (const p of projects) {
      for (const field of ['title', 'tech', 'problem', 'solution', 'description'] as const) expect(p[field].trim()).not.toBe('');
    }
    expect(projects.find((p) => p.id === 4)?.github).toBe('');
  });

  it('has at least two projects with a real video and poster, and at least one without', () => {
    const withVideo = projects.filter((p) => p.url);
    expect(withVideo.length).toBeGreaterThanOrEqual(2);
    expect(projects.some((p) => !p.url)).toBe(true);
    for (const p of withVideo) {
      for (const file of [p.url, p.webm, p.poster].filter(Boolean)) expect(existsSync(publicFile(file)), file).toBe(true);
      expect(p.poster).not.toBe('');
    }
  });

  it('finds a project only by a plain numeric id', () => {
    expect(findProject('3')?.id).toBe(3);
    for (const bad of [undefined, '', '0', '6', '03', '3.0', '3abc', ' 3', '-3']) expect(findProject(bad)).toBeUndefined();
  });

  it('has three blog articles, five fun facts and eleven policy sections', () => {
    expect(blogs).toHaveLength(3);
    for (const b of blogs) expect(b.url).toMatch(/^https:\/\//);
    expect(funFacts).toHaveLength(5);
    expect(privacyPolicy.sections).toHaveLength(11);
    expect(privacyPolicy.lastUpdated).toBe('2024-09-27');
    // As the English page writes it ("September 27, 2024").
    expect(new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(privacyPolicy.lastUpdated))).toBe(
      'September 27, 2024',
    );
  });

  it('has three comma-separated about groups and two education entries', () => {
    for (const group of [about.technologies, about.tools, about.practices]) expect(group.split(',').length).toBeGreaterThan(2);
    expect(about.education).toHaveLength(2);
  });

  it('points at images that exist', () => {
    for (const file of [site.headshot, ...(site.resume ? [site.resume] : [])]) expect(existsSync(publicFile(file)), file).toBe(true);
  });
});
