/**
 * The page's constant inline scripts, as generated text: the theme script and the boot script, the
 * latter bundled from web/boot/boot.ts with esbuild. The site's build writes them into every page
 * (vite.config.ts defines __BOOT_SCRIPT__ for root.tsx), the post-build step checks each page holds only
 * these, and the stack's CSP admits them by the hashes of this very text
 * (infra/shared/security-headers.ts). The text depends only on the source and the pinned esbuild, never on
 * content, so a content-only deploy leaves the CloudFront response-headers policy as it was.
 *
 * Runs in Node (at build, synth and test time), never in the browser.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSync } from 'esbuild';
import { THEME_SCRIPT } from '../../contract/theme-script.ts';

const BOOT_SOURCE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'boot.ts');

/**
 * What every browser the site supports parses (the oldest of them run ES2015). esbuild lowers newer
 * syntax (optional catch bindings, spreads of objects) and refuses what it cannot.
 */
const BOOT_TARGET = 'es2015';

let generated: string | undefined;

/**
 * The boot script's text: `bootPage()` and what it imports, minified into one expression statement.
 * Built once per process (about 20 ms); a build error (a type the bundler cannot lower, a missing
 * import) throws, so no page and no CSP is ever made without it.
 */
export function bootScript(): string {
  generated ??= generate();
  return generated;
}

function generate(): string {
  const result = buildSync({
    stdin: {
      contents: `import { bootPage } from ${JSON.stringify(BOOT_SOURCE)};\nbootPage();\n`,
      resolveDir: path.dirname(BOOT_SOURCE),
      loader: 'ts',
    },
    bundle: true,
    write: false,
    format: 'iife',
    target: BOOT_TARGET,
    platform: 'browser',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    logLevel: 'silent',
  });
  const text = result.outputFiles[0]?.text.trim();
  if (!text) throw new Error(`esbuild produced no boot script from ${BOOT_SOURCE}.`);
  // An inline script ends at the first "</script": the generated text must never hold one.
  if (/<\/script/i.test(text) || text.includes('<!--')) throw new Error('The generated boot script holds "</script" or "<!--".');
  return text;
}

/** Every constant inline script, by text, in page order: the theme script, then the boot script. */
export function inlineScripts(): readonly string[] {
  return [THEME_SCRIPT, bootScript()];
}
