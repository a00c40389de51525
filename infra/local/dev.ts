/**
 * `npm run dev`: React Router's Vite dev server (hot reload) for the pages, with /api proxied to
 * the same local API and mailbox `npm start` uses. Settings: PORT (5173), SES_PORT (8005),
 * RECAPTCHA_VERIFY_URL, RECAPTCHA_SECRET, OWNER_EMAIL, SENDER_EMAIL.
 * The dev server's pages carry Vite's inline scripts, so the production CSP is not applied here;
 * `npm start` is the production-like check.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'vite';
import { nodeVersionNote, portFromEnv, stackOptionsFromEnv, stopOnSignals } from './env-options';
import { startLocalStack } from './stack';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

async function main() {
  const nodeNote = nodeVersionNote(); // before any AWS SDK client exists
  const port = portFromEnv('PORT', 5173);
  // internal port: only the Vite proxy talks to it
  const stack = await startLocalStack({ ...stackOptionsFromEnv(), port: 0, staticSite: false });
  // Same as `react-router dev`: Vite with the project's config (and its reactRouter() plugin).
  const vite = await createServer({
    root: ROOT,
    configFile: path.join(ROOT, 'vite.config.ts'),
    server: { host: '127.0.0.1', port, strictPort: true, proxy: { '/api': { target: stack.url } } },
  });
  if (!vite.config.plugins.some((plugin) => plugin.name === 'react-router')) {
    await stack.stop();
    throw new Error('vite.config.ts has no reactRouter() plugin');
  }
  stopOnSignals(async () => {
    await vite.close();
    await stack.stop();
  });
  await vite.listen();
  vite.printUrls();
  console.log(
    `  Archive:  ${stack.archive?.url}   (${stack.archive?.dataDir ?? 'outside server'})\n  Mailbox:  ${stack.sesUrl}   (JSON at ${stack.sesUrl}/store)\n  API:      /api/* → ${stack.url}\n`,
  );
  if (nodeNote) console.log(`  ${nodeNote}\n`);
}

main().catch((error: unknown) => {
  console.error(`npm run dev failed: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
});
