import type { Config } from '@react-router/dev/config';
import { prerenderPaths } from './web/app/prerender-paths';

// Static site: every known route is prerendered to its own HTML file at build time,
// then hydrated in the browser. No server rendering at request time (S3 + CloudFront).
export default {
  appDirectory: 'web/app',
  buildDirectory: 'web/build',
  ssr: false,
  prerender: prerenderPaths,
} satisfies Config;
