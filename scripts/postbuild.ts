/**
 * Post-build step of `npm run build`: the CSP allows no 'unsafe-inline' scripts, so every inline
 * <script> the prerender writes must be allowed by its sha256 hash. This computes them from the
 * HTML files under web/build/client and writes web/build/csp-hashes.json (outside client/, so it is
 * never uploaded), failing the build if the CSP would outgrow CloudFront's header limit.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CSP_HASHES_FILE, WEB_BUILD_DIR, type CspHashesFile } from '../infra/shared/build-output';
import { contentSecurityPolicy } from '../infra/shared/security-headers';
import { CLOUDFRONT_CSP_MAX_CHARS } from '../contract/limits';

export { CLOUDFRONT_CSP_MAX_CHARS };

const SCRIPT_PATTERN = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
/** Types a browser executes as script; other types (application/json, …) are data blocks CSP ignores. */
const EXECUTABLE_TYPES = new Set(['', 'module', 'text/javascript', 'application/javascript', 'text/ecmascript']);

function attribute(attributes: string, name: string): string | undefined {
  const match = new RegExp(`(?:^|\\s)${name}(?:\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s"'>]+)))?(?=\\s|/|$)`, 'i').exec(
    attributes,
  );
  if (!match) return undefined;
  return match[1] ?? match[2] ?? match[3] ?? '';
}

/** The text of every executable inline script of one HTML document, as the browser hashes it. */
export function inlineScripts(html: string): string[] {
  const scripts: string[] = [];
  for (const match of html.matchAll(SCRIPT_PATTERN)) {
    const attributes = match[1] ?? '';
    if (attribute(attributes, 'src') !== undefined) continue;
    const type = (attribute(attributes, 'type') ?? '').trim().toLowerCase();
    if (!EXECUTABLE_TYPES.has(type)) continue;
    // The HTML parser turns CRLF and lone CR into LF before the browser hashes the text.
    scripts.push((match[2] ?? '').replace(/\r\n?/g, '\n'));
  }
  return scripts;
}

export function scriptHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

function htmlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.toLowerCase().endsWith('.html'))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Sorted, unique hashes of the inline scripts in every HTML file under `clientDir`. */
export function computeScriptHashes(clientDir: string): { hashes: string[]; files: number } {
  const files = htmlFiles(clientDir);
  const hashes = new Set<string>();
  for (const file of files) {
    for (const script of inlineScripts(readFileSync(file, 'utf8'))) hashes.add(scriptHash(script));
  }
  return { hashes: [...hashes].sort(), files: files.length };
}

/** Writes csp-hashes.json; throws when there is no HTML or the CSP would exceed CloudFront's limit. */
export function writeCspHashes(buildDir: string = WEB_BUILD_DIR): { hashes: string[]; files: number; cspLength: number } {
  const clientDir = path.join(buildDir, 'client');
  const { hashes, files } = computeScriptHashes(clientDir);
  if (files === 0) throw new Error(`No HTML file under ${clientDir}: did the prerender run?`);
  // The deployed policy (HTTPS) is the longest variant: it adds upgrade-insecure-requests.
  const cspLength = contentSecurityPolicy({ scriptHashes: hashes, upgradeInsecureRequests: true }).length;
  if (cspLength > CLOUDFRONT_CSP_MAX_CHARS) {
    throw new Error(
      `The Content-Security-Policy would be ${cspLength} characters, over CloudFront's limit of ` +
        `${CLOUDFRONT_CSP_MAX_CHARS}: the build has ${hashes.length} distinct inline scripts. ` +
        'Make the inline scripts identical across pages (no per-page data inline) or move them to files.',
    );
  }
  const content: CspHashesFile = { scriptHashes: hashes };
  writeFileSync(path.join(buildDir, CSP_HASHES_FILE), `${JSON.stringify(content, null, 2)}\n`);
  return { hashes, files, cspLength };
}

/**
 * The prerender of a resource route (robots.txt, sitemap.xml) also writes "<file>.data", the
 * single-fetch payload a client navigation would ask for. Nothing navigates to those files in the
 * browser, so the copies are removed rather than uploaded. Page payloads (e.g. home.data) are kept.
 */
export function removeResourceRouteData(clientDir: string): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(clientDir)) {
    if (!name.endsWith('.data')) continue;
    const resource = name.slice(0, -'.data'.length);
    if (path.extname(resource) !== '' && !resource.endsWith('.html') && existsSync(path.join(clientDir, resource))) {
      rmSync(path.join(clientDir, name));
      removed.push(name);
    }
  }
  return removed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const removed = removeResourceRouteData(path.join(WEB_BUILD_DIR, 'client'));
    if (removed.length > 0) console.log(`postbuild: removed resource-route payloads ${removed.join(', ')}`);
    const { hashes, files, cspLength } = writeCspHashes();
    console.log(
      `postbuild: ${hashes.length} inline-script hashes from ${files} HTML files → ` +
        `web/build/${CSP_HASHES_FILE} (CSP ${cspLength}/${CLOUDFRONT_CSP_MAX_CHARS} characters)`,
    );
  } catch (error) {
    console.error(`postbuild failed: ${(error as Error).message}`);
    process.exit(1);
  }
}
