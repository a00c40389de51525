import { chromium } from 'playwright-core';
const BASE = 'http://127.0.0.1:18431';
const args = ['--no-sandbox','--disable-gpu','--disable-background-networking','--disable-component-update','--disable-sync','--no-first-run','--disable-quic'];
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
const sizes = { phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 }, desktop: { viewport: { width: 1440, height: 900 } } };
const out = {};
for (const [name, size] of Object.entries(sizes)) {
  for (const js of [true, false]) {
    const ctx = await browser.newContext({ ...size, javaScriptEnabled: js });
    await ctx.route('**/*', (r) => (new URL(r.request().url()).hostname === '127.0.0.1' ? r.continue() : r.abort()));
    const page = await ctx.newPage();
    let release; const gate = new Promise((r) => (release = r));
    await page.route(/\/assets\/.+\.js/, async (r) => { await gate; await r.continue().catch(() => {}); });
    const tag = `${name}-${js ? 'held' : 'nojs'}`;
    await page.goto(BASE + '/contact', { waitUntil: 'commit' });
    await page.locator('h1').waitFor();
    await page.getByLabel('Full name', { exact: true }).pressSequentially('Ada Lovelace');
    await page.getByLabel('Message', { exact: true }).pressSequentially('Typed before hydration');
    await page.screenshot({ path: `/tmp/hyd-shots/${tag}-contact.png`, fullPage: true });
    if (js) {
      const t0 = Date.now();
      release();
      await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await page.waitForTimeout(1500);
      out[tag] = { hydratedAfterMs: Date.now() - t0, name: await page.getByLabel('Full name', { exact: true }).inputValue(), message: await page.getByLabel('Message', { exact: true }).inputValue(), focused: await page.evaluate(() => document.activeElement?.getAttribute('name')) };
      await page.screenshot({ path: `/tmp/hyd-shots/${tag}-contact-hydrated.png`, fullPage: true });
    }
    // /home: menu (phone) or headshot (desktop), and scroll on a long page
    const page2 = await ctx.newPage();
    let release2; const gate2 = new Promise((r) => (release2 = r));
    await page2.route(/\/assets\/.+\.js/, async (r) => { await gate2; await r.continue().catch(() => {}); });
    await page2.goto(BASE + '/home', { waitUntil: 'commit' });
    await page2.locator('h1').waitFor();
    if (name === 'phone') {
      await page2.getByRole('button', { name: /menu/i }).filter({ visible: true }).click();
    }
    await page2.screenshot({ path: `/tmp/hyd-shots/${tag}-home.png` });
    if (js) {
      release2();
      await page2.waitForFunction(() => document.documentElement.dataset.hydrated === 'true');
      await page2.waitForTimeout(500);
      await page2.screenshot({ path: `/tmp/hyd-shots/${tag}-home-hydrated.png` });
      out[tag].expanded = await page2.getByRole('button', { name: /menu/i }).filter({ visible: true }).getAttribute('aria-expanded').catch(() => 'n/a');
    }
    await ctx.close();
  }
}
console.log(JSON.stringify(out, null, 1));
await browser.close();
