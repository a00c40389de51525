/**
 * Transitional: github/previews.ts still imports this path; it moves to kit/stack-outputs once the
 * GitHub commands join the kit. `npm run deploy` itself is deploy/cli.ts.
 */
export { siteUrlFromOutputsFile } from './kit/stack-outputs';
