import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

/**
 * Client-bundle shaping for the first-load JS budget (≤ 110 KB gzip per route). Every
 * file a page preloads costs its own gzip header and import/export glue, and separate files
 * compress worse than one, so what every page needs anyway is grouped:
 *   - vendor: React, React DOM, the scheduler and React Router (the runtime every page hydrates with);
 *   - app: the root route and what it imports statically (the layout, consent gate, click
 *     tracking, build variables), plus the two helpers nearly every page route imports.
 * Route modules and on-demand chunks (cookie banner, fun-fact modal, scroll-to-top button,
 * analytics, captcha widget) stay separate. Measured with `npm run bench -- --no-lighthouse`.
 */
const VENDOR = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]/;
const ROOT_ROUTE = fileURLToPath(new URL('./web/app/root.tsx', import.meta.url));
const SHARED_BY_PAGES = [
  fileURLToPath(new URL('./web/app/layout/seo.ts', import.meta.url)),
  fileURLToPath(new URL('./web/app/features/analytics/page-events.ts', import.meta.url)),
];

interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** The root route and every non-vendor module it imports statically, directly or not. */
function rootGraph(ctx: ChunkingContext): Set<string> {
  const graph = new Set<string>([ROOT_ROUTE]);
  const todo = [ROOT_ROUTE];
  for (let id = todo.pop(); id !== undefined; id = todo.pop()) {
    for (const dep of ctx.getModuleInfo(id)?.importedIds ?? []) {
      if (graph.has(dep) || VENDOR.test(dep)) continue;
      graph.add(dep);
      todo.push(dep);
    }
  }
  return graph;
}

export default defineConfig(({ isSsrBuild }) => ({
  // Favicon, manifest, images and videos live beside the app, in web/public.
  publicDir: 'web/public',
  plugins: [reactRouter()],
  build: isSsrBuild
    ? {}
    : {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'vendor', test: VENDOR },
                {
                  name: (() => {
                    let shell: Set<string> | null = null;
                    return (id: string, ctx: ChunkingContext) => {
                      shell ??= rootGraph(ctx);
                      return shell.has(id) || SHARED_BY_PAGES.includes(id) ? 'app' : null;
                    };
                  })(),
                },
              ],
            },
          },
        },
      },
}));
