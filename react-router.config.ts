import type { Config } from '@react-router/dev/config';
import { checkAllCatalogues } from './web/content/check';
import { prerenderPaths } from './web/app/prerender-paths';

// Static site: every known route of every language is prerendered to its own HTML file at build
// time, then hydrated in the browser. No server rendering at request time (S3 + CloudFront).
export default {
  appDirectory: 'web/app',
  buildDirectory: 'web/build',
  ssr: false,
  // Every language's content is checked first: a missing project or text stops the build, naming it.
  prerender: async () => {
    await checkAllCatalogues();
    return prerenderPaths();
  },
} satisfies Config;
