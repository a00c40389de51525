/**
 * A content-only change must leave the distribution's configuration byte-for-byte as it was, so no
 * edge ever pairs a page with a policy from another build. This builds the real site twice (from
 * copies of the repository: once as is, once with another owner name and project title), runs the
 * real post-build step on each, synthesizes the stack with each build and compares. A third copy
 * drops the Spanish language (its one line in web/content/locales.ts): the site still builds, in
 * English alone, and the policy and function stay the same too.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, type ProjectCopy } from '../../tools/project-copy';
import { fixtureConfig, synthPortfolio, type Json } from './testing';

const copies: ProjectCopy[] = [];
afterAll(() => copies.forEach((copy) => copy.remove()));

/** Builds a copy of the project (`npm run build`: the site, then the post-build step) with `edit` applied to its content folder; returns its web/build. */
async function buildCopy(edit: (contentDir: string) => void): Promise<string> {
  const copy = copyProject('content-deploy-');
  copies.push(copy);
  edit(path.join(copy.dir, 'web', 'content'));
  const { code, output } = await copy.build();
  if (code !== 0) throw new Error(`A copy of the project did not build:\n${output}`);
  return path.join(copy.dir, 'web', 'build');
}

function replaceIn(file: string, from: string, to: string): void {
  const text = readFileSync(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} does not contain ${from}: update this test's content edit`);
  writeFileSync(file, text.split(from).join(to));
}

/** The resources of one type in a synthesized template, as the exact JSON CloudFormation receives. */
function resourcesJson(template: Json, type: string): string {
  const resources = Object.values(template.Resources as Record<string, Json>).filter((r) => r.Type === type);
  expect(resources.length).toBeGreaterThan(0);
  return JSON.stringify(resources);
}

const templates = new Map<string, Json>();
/** The stack synthesized with the site in `buildDir`: once per build, however many tests compare it. */
function templateWith(buildDir: string): Json {
  if (!templates.has(buildDir)) templates.set(buildDir, synthPortfolio(fixtureConfig(), '123456789012', buildDir).template.toJSON());
  return templates.get(buildDir)!;
}

function movedScripts(buildDir: string): string[] {
  return readdirSync(path.join(buildDir, 'client', 'assets'))
    .filter((name) => name.startsWith('inline-'))
    .sort();
}

let before: string;
let after: string;
let englishOnly: string;
beforeAll(async () => {
  before = await buildCopy(() => undefined);
  after = await buildCopy((content) => {
    replaceIn(path.join(content, 'site.ts'), "name: 'Alex Example'", "name: 'Robin Quill-Other'");
    replaceIn(path.join(content, 'projects.ts'), "title: 'Hotel Booking Manager'", "title: 'Guest House Planner'");
    replaceIn(
      path.join(content, 'es', 'projects.ts'),
      "title: 'Gestor de reservas hoteleras'",
      "title: 'Planificador de casas de huéspedes'",
    );
  });
  englishOnly = await buildCopy((content) => {
    // The owner's way to drop a language: delete its line in locales.ts.
    const locales = path.join(content, 'locales.ts');
    const esLine = readFileSync(locales, 'utf8').match(/^ {2}es: \{.*\},\n/m)?.[0];
    if (!esLine) throw new Error(`${locales} has no es line: update this test's content edit`);
    replaceIn(locales, esLine, '');
  });
}, 450_000);

describe('a content-only deploy', () => {
  it('changes the pages and their per-page scripts', () => {
    const home = (dir: string) => readFileSync(path.join(dir, 'client', 'home', 'index.html'), 'utf8');
    expect(home(before)).toContain('Alex Example');
    expect(home(after)).toContain('Robin Quill-Other');
    // The moved scripts are content-hashed files: some change with content, and a page never
    // names a file of another build.
    expect(movedScripts(after)).not.toEqual(movedScripts(before));
  });

  it('leaves the response-headers policy and the CloudFront Function byte-for-byte as they were', () => {
    const one = templateWith(before);
    const two = templateWith(after);
    for (const type of ['AWS::CloudFront::ResponseHeadersPolicy', 'AWS::CloudFront::Function']) {
      expect(resourcesJson(two, type)).toBe(resourcesJson(one, type));
    }
    // The distribution itself changes only through the site asset it deploys, never its headers.
    expect(resourcesJson(two, 'AWS::CloudFront::Distribution')).toBe(resourcesJson(one, 'AWS::CloudFront::Distribution'));
  });

  it('builds in English alone once a language is removed, with the same policy and function', () => {
    expect(existsSync(path.join(englishOnly, 'client', 'es'))).toBe(false);
    const home = readFileSync(path.join(englishOnly, 'client', 'home', 'index.html'), 'utf8');
    expect(home).toContain('<html lang="en" dir="ltr">');
    expect(home).not.toMatch(/hreflang="es"|Español|\/es\//i);
    expect(readFileSync(path.join(englishOnly, 'client', 'sitemap.xml'), 'utf8')).not.toContain('/es/');
    expect(readFileSync(path.join(before, 'client', 'es', 'home', 'index.html'), 'utf8')).toContain('<html lang="es" dir="ltr">');
    const one = templateWith(before);
    const three = templateWith(englishOnly);
    for (const type of ['AWS::CloudFront::ResponseHeadersPolicy', 'AWS::CloudFront::Function']) {
      expect(resourcesJson(three, type)).toBe(resourcesJson(one, type));
    }
  });
});
