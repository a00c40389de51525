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
/**
 * Written by scripts/postbuild.ts next to client/ (never uploaded): proof that the post-build step
 * ran, and the hashes of the inline scripts its pages still carry (all of them constant ones).
 */
export const POSTBUILD_REPORT_FILE = 'postbuild.json';

export interface PostbuildReport {
  /** 'sha256-…' of every inline script left in the pages (each one from web/boot/generate.ts). */
  inlineScriptHashes: string[];
}

const HASH_PATTERN = /^sha256-[A-Za-z0-9+/]{43}=$/;

/** Parses and checks the content of postbuild.json; `source` names the file in errors. */
export function parsePostbuildReport(text: string, source: string): PostbuildReport {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new Error(`${source} is not valid JSON (${(error as Error).message}); run \`npm run build\` again.`);
  }
  const hashes = (data as Partial<PostbuildReport> | null)?.inlineScriptHashes;
  if (!Array.isArray(hashes) || !hashes.every((h) => typeof h === 'string' && HASH_PATTERN.test(h))) {
    throw new Error(`${source} must be {"inlineScriptHashes": ["sha256-<base64>", …]}; run \`npm run build\` again.`);
  }
  return { inlineScriptHashes: hashes };
}

/**
 * Checks that the build in `buildDir` went through the post-build step and that every inline script
 * its pages carry is admitted by the policy this source computes (a build made from another version
 * of web/boot/generate.ts is refused). Throws, naming `npm run build`, otherwise.
 */
export function checkBuildMatchesPolicy(buildDir: string, policyHashes: readonly string[]): PostbuildReport {
  const file = path.join(buildDir, POSTBUILD_REPORT_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new Error(`${file} is missing: run \`npm run build\` first (its post-build step moves the pages' inline scripts into files).`);
    }
    throw error;
  }
  const report = parsePostbuildReport(text, file);
  const unknown = report.inlineScriptHashes.filter((h) => !policyHashes.includes(h));
  if (unknown.length > 0) {
    throw new Error(
      `The build in ${buildDir} has inline scripts the Content-Security-Policy does not admit (${unknown.join(', ')}): ` +
        'it was built from another version of web/boot/generate.ts or what it generates from; run `npm run build` again.',
    );
  }
  return report;
}
