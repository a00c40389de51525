import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@react-router/dev/config';
import { pathOf } from './contract/site-routes';
import { checkPageEvents } from './contract/page-events';
import { checkAllCatalogues } from './web/content/check';
import { projects } from './web/content/projects';
import { prerenderPaths } from './web/app/prerender-paths';
import { localizePath } from './web/app/i18n/paths';
import { parsePostSource } from './web/app/posts/front-matter';
import { DEFAULT_LOCALE, LOCALE_CODES } from './web/content/locales';

/**
 * The page of each post a build has (web/content/posts/*.md, web/content/{code}/posts/*.md) and of each
 * of its language's tags: drafts are left out, as the pages' loaders leave them out
 * (web/app/posts/posts.server.ts checks each file fully).
 */
function postPaths(): string[] {
  return LOCALE_CODES.flatMap((locale) => {
    const dir = path.join('web/content', locale === DEFAULT_LOCALE ? '' : locale, 'posts');
    if (!existsSync(dir)) return [];
    const posts = readdirSync(dir)
      .filter((name) => name.endsWith('.md'))
      .map((name) => ({ slug: name.slice(0, -'.md'.length), ...parsePostSource(path.join(dir, name), readFileSync(path.join(dir, name), 'utf8')).frontMatter }))
      .filter((post) => !post.draft);
    const tags = [...new Set(posts.flatMap((post) => post.tags))];
    return [...posts.map((post) => localizePath(locale, pathOf('post', post.slug))), ...tags.map((tag) => localizePath(locale, pathOf('tag', tag)))];
  });
}

// Stack traces of errors thrown while prerendering point into web/app and web/content, not into the
// server bundle (vite.config.ts gives it source maps); `npm start` shows the first one (scripts/quiet-build.ts).
process.setSourceMapsEnabled(true);

/** The content check runs once per build, though React Router asks for the paths more than once. */
let contentChecked: Promise<unknown> | undefined;

// Static site: every known route of every language is prerendered to its own HTML file at build
// time, then hydrated in the browser. No server rendering at request time (S3 + CloudFront).
export default {
  appDirectory: 'web/app',
  buildDirectory: 'web/build',
  ssr: false,
  // Every language's content is checked first: a missing project or text stops the build, naming it;
  // so does a project title whose Google Analytics page event would be invalid or another's; a language
  // still copied from another is a warning (CONTENT_WARNING lines in the output).
  prerender: async () => {
    contentChecked ??= (async () => {
      checkPageEvents(projects);
      await checkAllCatalogues();
    })();
    await contentChecked;
    return prerenderPaths(LOCALE_CODES, postPaths());
  },
} satisfies Config;
