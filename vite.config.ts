import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import { defineConfig, loadEnv } from 'vite';
import { defineWebEnv } from './web/app/config/env-schema.ts';
import { servePostImages } from './web/app/posts/post-images.server.ts';
import { bootScript } from './web/boot/generate.ts';
import { searchIndex } from './scripts/search-index.ts';
import { basePathOf } from './contract/preview-path.ts';

/**
 * React Router 7.18 starts Vite servers of its own (loading react-router.config.ts, the prerender's child
 * compiler) with `envFile: false`, an option Vite 8 deprecates, so Vite printed "The `envFile` option is
 * deprecated, please use `envDir: false` instead." seven times in every build and `npm run dev`: about
 * React Router's code, not this project's, and nothing an owner can act on. That one line is dropped
 * (Vite's logger writes through console.warn) from the servers made once this file is loaded; the
 * build's first, made before, is dropped by scripts/build.ts. Every other warning is kept.
 */
const ENV_FILE_DEPRECATION = 'The `envFile` option is deprecated';
const warn = console.warn.bind(console);
console.warn = (...args: unknown[]) => {
  if (typeof args[0] === 'string' && args[0].includes(ENV_FILE_DEPRECATION)) return;
  warn(...args);
};

/**
 * Client-bundle shaping for the first-load JS budget (at most 120 KB gzip per route). Every
 * file a page preloads costs its own gzip header and import/export glue, and separate files
 * compress worse than one, so what every page needs anyway is grouped:
 *   - vendor: React, React DOM, the scheduler and React Router (the runtime every page hydrates with);
 *   - app: the root route and what it imports statically (the layout, consent gate, click
 *     tracking, build variables), plus the two helpers nearly every page route imports and the
 *     scroll-to-top helper both such buttons share.
 * Route modules and on-demand chunks (floating scroll-to-top button, analytics, captcha widget)
 * stay separate, and so does the fun-fact modal (fetched after hydration); the cookie banner is in
 * `app` (why: ConsentGate.tsx).
 * Measured with `npm run bench -- --no-lighthouse`.
 */
const VENDOR = /[\\/]node_modules[\\/](?:react|react-dom|scheduler|react-router)[\\/]/;
const REACT_ROUTER_PRODUCTION = (file: string) =>
  fileURLToPath(new URL(`./node_modules/react-router/dist/production/${file}`, import.meta.url));
const ROOT_ROUTE = fileURLToPath(new URL('./web/app/root.tsx', import.meta.url));
const SHARED_BY_PAGES = [
  fileURLToPath(new URL('./web/app/layout/seo.ts', import.meta.url)),
  fileURLToPath(new URL('./web/app/features/analytics/page-events.ts', import.meta.url)),
  // Both scroll-to-top buttons' (the floating one after hydration, /projects' in-page one): otherwise a
  // chunk of its own, which /projects would preload.
  fileURLToPath(new URL('./web/app/components/scroll.ts', import.meta.url)),
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

export default defineConfig(({ isSsrBuild, mode }) => ({
  // A preview's base path (PREVIEW_PATH; react-router.config.ts sets the same basename): assets, CSS url()s
  // and import.meta.env.BASE_URL, which the app prefixes to its public files' addresses (web/app/base-path.ts).
  base: `${basePathOf(process.env.PREVIEW_PATH)}/`,
  // The build variables, checked here (a bad one stops the build) and inlined as one constant.
  // And the boot script, generated from type-checked TypeScript (web/boot/generate.ts) for root.tsx to write.
  define: {
    ...defineWebEnv(loadEnv(mode, process.cwd(), 'VITE_'), basePathOf(process.env.PREVIEW_PATH) !== ''),
    __BOOT_SCRIPT__: JSON.stringify(bootScript()),
  },
  // Favicon, manifest, images and videos live beside the app, in web/public.
  publicDir: 'web/public',
  // npm run dev: serves the posts' images, made as a build makes them (web/app/posts/post-images.server.ts).
  // The search indexes: one module per language, made from the content (scripts/search-index.ts).
  plugins: [reactRouter(), servePostImages(), searchIndex()],
  // React Router's package exports always resolve its development build, which keeps its dev
  // warnings on in production (remix-run/react-router#14102, open). The two builds differ only in
  // that flag, so the browser bundle takes the production one; the prerender is unaffected.
  resolve: isSsrBuild
    ? {}
    : {
        alias: [
          { find: /^react-router$/, replacement: REACT_ROUTER_PRODUCTION('index.mjs') },
          { find: /^react-router\/dom$/, replacement: REACT_ROUTER_PRODUCTION('dom-export.mjs') },
        ],
      },
  // The prerender's own bundle (web/build/server, never uploaded) gets source maps: with them (see
  // react-router.config.ts), an error while prerendering names the source file and line, not the bundle's.
  // Rolldown's timing report (https://rolldown.rs/reference/InputOptions.checks) names React Router's
  // prerender as the slow part of every build, which it is by design: off, so a build prints only what
  // needs the owner. The prerender's bundle is never shipped, so how its chunks split does not matter
  // (the content check's import of each language's module, which the routes import too).
  build: isSsrBuild
    ? { sourcemap: true, rolldownOptions: { checks: { bundlerTimings: false, ineffectiveDynamicImport: false } } }
    : {
        rolldownOptions: {
          checks: { bundlerTimings: false },
          output: {
            codeSplitting: {
              groups: [
                { name: 'vendor', test: VENDOR },
                {
                  debugName: 'app',
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
