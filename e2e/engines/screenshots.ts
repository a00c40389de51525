/**
 * `npx tsx e2e/engines/screenshots.ts` (after `npm run build`): phone-size screenshots of home, a
 * project and contact in Firefox ESR and WebKitGTK, into docs/screenshots/phone-{page}-{engine}.png
 * (the Chromium ones come from scripts/screenshots.ts). The local stack serves the build on free
 * ports; the browsers go through the visitor flows' offline network (fake captcha, nothing leaves).
 * The viewport as the visitor sees it on opening the page; WebKitGTK's window is at least ~450 px wide.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { startLocalStack } from '../../infra/local/stack';
import { launchEngine, type EngineName } from './engine';
import { startNetwork } from './network';

const OUT_DIR = path.resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots');
const PAGES = { home: '/home', 'project-2': '/projects/2', contact: '/contact' } as const;
const ENGINES: EngineName[] = ['firefox', 'webkit'];

const stack = await startLocalStack({ port: 0, sesPort: 0, quiet: true });
const network = await startNetwork();
mkdirSync(OUT_DIR, { recursive: true });
try {
  for (const name of ENGINES) {
    const engine = await launchEngine(name, network);
    try {
      const page = await engine.open({ viewport: 'phone' });
      // A returning visitor who accepted: the banner would cover the bottom of each page.
      await page.goto(`${stack.url}/robots.txt`);
      await page.evaluate(() => localStorage.setItem('cookieConsent', 'true'));
      for (const [file, route] of Object.entries(PAGES)) {
        await page.goto(`${stack.url}${route}`);
        const deadline = Date.now() + 15_000;
        while (
          !(await page.evaluate(
            () => document.documentElement.dataset.hydrated === 'true' && document.getAnimations().every((a) => a.playState !== 'running'),
          ))
        ) {
          if (Date.now() > deadline) throw new Error(`${route} did not settle in ${name}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        await page.evaluate(() => document.fonts.ready.then(() => true));
        const out = path.join(OUT_DIR, `phone-${file}-${name}.png`);
        writeFileSync(out, await page.screenshot());
        console.log(path.relative(process.cwd(), out));
      }
      await page.close();
    } finally {
      await engine.close();
    }
  }
} finally {
  await network.stop();
  await stack.stop();
}
