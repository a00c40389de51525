import type { Config } from '@react-router/dev/config';
import { checkPageEvents } from './contract/page-events';
import { checkAllCatalogues } from './web/content/check';
import { projects } from './web/content/projects';
import { postPaths, prerenderPaths } from './web/app/prerender-paths';
import { checkPosts } from './scripts/post-files';
import { LOCALE_CODES } from './web/content/locales';
import { basePathOf } from './contract/preview-path';

/**
 * The posts checked before any page is prerendered (scripts/post-files.ts). A mistake ends the
 * build here, its message the last thing printed: thrown, it would be followed by the framework's stack
 * trace, and left to the pages' loaders, by a "500 while prerendering" for every page that lists posts.
 */
async function checkedPostPaths(): Promise<string[]> {
  const { posts, errors, warnings } = await checkPosts(process.cwd(), LOCALE_CODES, (found) => prerenderPaths(LOCALE_CODES, postPaths(found)));
  for (const warning of warnings) console.warn(warning);
  if (errors.length > 0) {
    const message = errors.map((error) => `Error: ${error}`).join('\n');
    // `npm run dev` asks for the paths too (its server entry): there the error shows on the page, and
    // the server keeps running for the fix.
    if (!process.argv.includes('build')) throw new Error(message);
    console.error(`\n${message}\n\nThe build stopped: ${errors.length === 1 ? 'a post needs' : `${errors.length} posts need`} the fix above.`);
    process.exit(1);
  }
  return postPaths(posts);
}

// Stack traces of errors thrown while prerendering point into web/app and web/content, not into the
// server bundle (vite.config.ts gives it source maps); `npm start` shows the first one (scripts/quiet-build.ts).
process.setSourceMapsEnabled(true);

/** The content check runs once per build, though React Router asks for the paths more than once. */
let contentChecked: Promise<string[]> | undefined;

// Static site: every known route of every language is prerendered to its own HTML file at build
// time, then hydrated in the browser. No server rendering at request time (S3 + CloudFront).
export default {
  appDirectory: 'web/app',
  buildDirectory: 'web/build',
  ssr: false,
  // A pull request's preview is built for its own path (PREVIEW_PATH=pr-12/abc1234, vite.config.ts sets
  // the same `base`): every link and navigation stays under /pr-12/abc1234/. React Router's `basename`
  // ("react-router.config.ts", https://reactrouter.com/api/framework-conventions/react-router.config.ts);
  // the prerender then writes the pages under client/pr-12/abc1234/ beside the root's assets
  // (remix-run/react-router#14587), which scripts/postbuild.ts moves up to the root.
  basename: basePathOf(process.env.PREVIEW_PATH) || '/',
  // Every language's content is checked first: a missing project or text stops the build, naming it;
  // so does a project title whose Google Analytics page event would be invalid or another's, and a
  // mistake in a post; a language (or a post) still copied from another is a warning (CONTENT_WARNING
  // lines in the output).
  prerender: async () => {
    contentChecked ??= (async () => {
      checkPageEvents(projects);
      await checkAllCatalogues();
      return checkedPostPaths();
    })();
    // A failed check is run again next time (`npm run dev` asks again once the file is fixed).
    contentChecked.catch(() => (contentChecked = undefined));
    return prerenderPaths(LOCALE_CODES, await contentChecked);
  },
} satisfies Config;
