/**
 * The site's search indexes, one per language, made at build time (vite.config.ts) as modules of the
 * browser build: `import('virtual:search-index/es')` is a hashed file under assets/, fetched only when
 * the search dialog wants it, cached like every other asset and found under any base path the build
 * has. Each module holds the language's MiniSearch index, as a JSON string (parsing JSON is faster than
 * running the same object as script).
 *
 * The indexes are made by web/app/search/build-indexes.ts, run through Vite's module runner with the
 * build's own definitions, so it reads the content and the posts exactly as the prerender does.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport, type Plugin } from 'vite';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PREFIX = 'virtual:search-index-';
const ALL = 'virtual:search-indexes';
const RESOLVED = '\0';

interface IndexesModule {
  indexes: Readonly<Record<string, string>>;
}

/** The content of one language's search module. */
export function searchModuleSource(index: string): string {
  return `export const index = ${JSON.stringify(index)};\n`;
}

export function searchIndex(): Plugin {
  let define: Record<string, string> = {};
  let drafts = false;
  // Made once per build (every language's at once: the posts are compiled once).
  let made: Promise<Readonly<Record<string, string>>> | undefined;
  const indexes = () => {
    const config = {
      configFile: false as const,
      root: REPO,
      mode: drafts ? 'development' : 'production',
      define,
      logLevel: 'warn' as const,
    };
    made ??= runnerImport<IndexesModule>(path.join(REPO, 'web/app/search/build-indexes.ts'), config).then(
      (result) => result.module.indexes,
      (error: unknown) => {
        // A mistake in a post is the posts check's to report (react-router.config.ts, scripts/post-files.ts):
        // it stops the build with the file, the line and the fix as its last lines, which a bundler error
        // here would bury. Until then no language has an index; a build with the mistake never ships.
        if (error instanceof Error && error.name === 'PostError') return {};
        throw error;
      },
    );
    return made;
  };
  return {
    name: 'portfolio-search-index',
    configResolved(config) {
      define = config.define ?? {};
      drafts = config.command === 'serve';
    },
    resolveId(id) {
      return id === ALL || id.startsWith(PREFIX) ? RESOLVED + id : undefined;
    },
    async load(id) {
      if (!id.startsWith(RESOLVED)) return undefined;
      const name = id.slice(RESOLVED.length);
      const all = await indexes();
      if (name === ALL) {
        // Each language's module is a chunk of its own: a page fetches its language's index only.
        const entries = Object.keys(all).map((code) => `  ${JSON.stringify(code)}: () => import(${JSON.stringify(PREFIX + code)}),`);
        return `export const searchModules = {\n${entries.join('\n')}\n};\n`;
      }
      if (!name.startsWith(PREFIX)) return undefined;
      const locale = name.slice(PREFIX.length);
      const index = all[locale];
      if (index === undefined) throw new Error(`No language "${locale}" for a search index (web/content/locales.ts).`);
      return searchModuleSource(index);
    },
  };
}
