import type { Config } from '@react-router/dev/config';
import { checkPageEvents } from './contract/page-events';
import { checkAllCatalogues } from './web/content/check';
import { projects } from './web/content/projects';
import { prerenderPaths } from './web/app/prerender-paths';

// Static site: every known route of every language is prerendered to its own HTML file at build
// time, then hydrated in the browser. No server rendering at request time (S3 + CloudFront).
export default {
  appDirectory: 'web/app',
  buildDirectory: 'web/build',
  ssr: false,
  // Every language's content is checked first: a missing project or text stops the build, naming it;
  // so does a project title whose Google Analytics page event would be invalid or another's.
  prerender: async () => {
    checkPageEvents(projects);
    await checkAllCatalogues();
    return prerenderPaths();
  },
} satisfies Config;
