/**
 * Where the production build lives and what the post-build step leaves beside it. Shared by the
 * post-build script, the local server and the CDK stack, so all three agree on names and paths.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root directory (where package.json sits). */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** react-router build output (react-router.config.ts: buildDirectory). */
export const WEB_BUILD_DIR = path.join(REPO_ROOT, 'web', 'build');
/** What is uploaded to S3 / served to browsers. */
export const WEB_CLIENT_DIR = path.join(WEB_BUILD_DIR, 'client');
/** The page React Router writes for paths it did not prerender; served with status 404. */
export const SPA_FALLBACK_FILE = '__spa-fallback.html';
/** Written by scripts/postbuild.ts next to client/ (not inside it, so it is never uploaded). */
export const CSP_HASHES_FILE = 'csp-hashes.json';

export interface CspHashesFile {
  scriptHashes: string[];
}

const HASH_PATTERN = /^sha256-[A-Za-z0-9+/]{43}=$/;

/** Parses and checks the content of csp-hashes.json; `source` names the file in errors. */
export function parseScriptHashes(text: string, source: string): string[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON (${(error as Error).message}); run \`npm run build\` again.`);
  }
  const hashes = (data as Partial<CspHashesFile> | null)?.scriptHashes;
  if (!Array.isArray(hashes) || !hashes.every((h) => typeof h === 'string' && HASH_PATTERN.test(h))) {
    throw new Error(`${source} must be {"scriptHashes": ["sha256-<base64>", …]}; run \`npm run build\` again.`);
  }
  return hashes;
}

/** The CSP hashes of the build's inline scripts. Throws, naming `npm run build`, when missing. */
export function readScriptHashes(buildDir: string = WEB_BUILD_DIR): string[] {
  const file = path.join(buildDir, CSP_HASHES_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(
        `${file} is missing: run \`npm run build\` first (its post-build step computes the CSP hashes of the inline scripts).`,
      );
    }
    throw error;
  }
  return parseScriptHashes(text, file);
}
