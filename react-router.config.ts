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
  const { posts, errors, warnings } = await checkPosts(process.cwd(), LOCALE_CODES, (found) =>
    prerenderPaths(LOCALE_CODES, postPaths(found)),
  );
  for (const warning of warnings) console.warn(warning);
  if (errors.length > 0) {
    const message = errors.map((error) => `Error: ${error}`).join('\n');
    // `npm run dev` asks for the paths too (its server entry): there the error shows on the page, and
    // the server keeps running for the fix.
    if (!process.argv.includes('build')) throw new Error(message);
    console.error(
      `\n${message}\n\nThe build stopped: ${errors.length === 1 ? 'a post needs' : `${errors.length} posts need`} the fix above.`,
    );
    process.exit(1);
  }
  return postPaths(posts);
}

/**
 * Runs a check of the owner's content. In `npm run build` a mistake ends the build with its message (the
 * cause, naming the file and what to change) and one line on what to do next, and no stack trace: the
 * trace points into the checks, not at the owner's file. DEBUG=1 keeps the trace (the error is thrown).
 * `npm run dev` shows the error on the page and keeps running for the fix.
 */
async function contentCheck<T>(check: () => T | Promise<T>): Promise<T> {
  try {
    return await check();
  } catch (error) {
    if (!process.argv.includes('build') || process.env.DEBUG) throw error;
    console.error(
      `\nError: ${error instanceof Error ? error.message : String(error)}\n\nThe build stopped: fix what is named above, then run it again (DEBUG=1 shows where in the checks it stopped).`,
    );
    process.exit(1);
  }
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
  // React Router's future flags (https://reactrouter.com/7.18.1/upgrading/future), each set, so none is
  // announced at every build. Taken: v8_middleware, which changes only the `context` argument of loaders
  // and actions; this site's loaders read none. Not yet, each for a reason of this site's:
  // - v8_splitRouteModules: it splits a route's client loader from its component into chunks of their
  //   own, and the post-build step (scripts/postbuild.ts) and the first-load budgets (docs/benchmarks.md)
  //   are measured against today's chunks; taking it means measuring those again.
  // - v8_viteEnvironmentApi: it changes how the build drives Vite (the search index's module runner,
  //   scripts/search-index.ts, and the prerender's child compiler); to be taken with a run of every suite.
  // - v8_passThroughRequests: loaders would get the raw request (a `.data` address), and the pages'
  //   loaders read their language and page from request.url.
  // - v8_trailingSlashAwareDataRequests: it renames a trailing-slash address's `.data` file, which the
  //   CDN function and the local server map (infra/); to change with them.
  future: {
    v8_middleware: true,
    v8_splitRouteModules: false,
    v8_viteEnvironmentApi: false,
    v8_passThroughRequests: false,
    v8_trailingSlashAwareDataRequests: false,
  },
  // Every language's content is checked first: a missing project or text stops the build, naming it;
  // so does a project title whose Google Analytics page event would be invalid or another's, and a
  // mistake in a post; a language (or a post) still copied from another is a warning (CONTENT_WARNING
  // lines in the output).
  prerender: async () => {
    contentChecked ??= (async () => {
      await contentCheck(() => checkPageEvents(projects));
      await contentCheck(() => checkAllCatalogues());
      return checkedPostPaths();
    })();
    // A failed check is run again next time (`npm run dev` asks again once the file is fixed).
    contentChecked.catch(() => (contentChecked = undefined));
    return prerenderPaths(LOCALE_CODES, await contentChecked);
  },
} satisfies Config;
