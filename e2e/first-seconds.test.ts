/**
 * The visitor's first seconds on a slow phone: the prerendered page is there at once, the page's
 * own scripts come later (here: held back by e2e/support/hold-scripts.ts until the test lets them through), or
 * never (JavaScript turned off). What the visitor does meanwhile must survive hydration, and the
 * menu and every link must work without scripts.
 */
import type { Locator, Page } from 'playwright-core';
import { holdScripts } from './support/hold-scripts';
import { describe, expect, inject, it } from 'vitest';
import { baseUrl, eventually, scrollY, textOf, visit, waitForHydration, type ViewportName } from './support/browser';
import { FAKE_CAPTCHA_LABEL } from './support/fakes';
import { DEFAULT_LOCALE, LOCALE_CODES } from '../web/content/locales';
import { loadCatalogue } from '../web/content/check';
import { KNOWN_ROUTES, localized, MENU_ENTRIES, normalize, TEXT } from './support/site';
import { useBrowserSessions } from './support/sessions';

const sessions = useBrowserSessions();

function isHydrated(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.dataset.hydrated === 'true');
}

/** Opens a path without waiting for scripts: the prerendered document has arrived. */
async function arrive(page: Page, path: string): Promise<void> {
  await page.goto(`${baseUrl()}${path}`, { waitUntil: 'commit' });
  await page.locator('h1').first().waitFor({ state: 'visible' });
}

function menuToggle(page: Page): Locator {
  return page.getByRole('button', { name: /menu/i }).filter({ visible: true });
}

function visibleEntry(page: Page, name: string): Locator {
  return page.getByRole('link', { name, exact: true }).filter({ visible: true });
}

function focusedField(page: Page): Promise<string> {
  return page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.name || document.activeElement?.tagName || '');
}

async function mailsContaining(marker: string): Promise<{ subject: string; body: { text?: string } }[]> {
  const response = await fetch(`${inject('sesUrl')}/store`);
  const store = (await response.json()) as { emails: { subject: string; body: { text?: string } }[] };
  return store.emails.filter((mail) => `${mail.subject}\n${mail.body.text ?? ''}`.includes(marker));
}

function uniqueLastName(): string {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  let out = '';
  for (let i = 0; i < 8; i++) out += letters[Math.floor(Math.random() * letters.length)];
  return out.charAt(0).toUpperCase() + out.slice(1);
}

describe('before the scripts arrive (held back), hydration keeps what the visitor did', () => {
  it.each(['phone', 'desktop'] as ViewportName[])(
    'text typed in every field survives hydration, focus stays in the field, and the form sends it (%s)',
    async (viewport) => {
      const page = (await sessions.open({ viewport })).page;
      const scripts = await holdScripts(page);
      await arrive(page, '/contact');
      const main = page.getByRole('main');
      const name = main.getByLabel('Full name', { exact: true });
      const email = main.getByLabel('Email', { exact: true });
      const message = main.getByLabel('Message', { exact: true });
      const send = main.getByRole('button', { name: /^(Send|Sending\.\.\.)$/ });

      // The captcha says it is on its way; Send waits for it.
      await expect(main.getByText('Loading the captcha…').isVisible()).resolves.toBe(true);
      await expect(send.isDisabled()).resolves.toBe(true);

      const lastName = uniqueLastName();
      const typed = {
        name: `Ada ${lastName}`,
        email: `ada.${lastName.toLowerCase()}@example.org`,
        message: `Typed before the scripts came (${lastName}).\nSecond line.`,
      };
      await name.click();
      await name.pressSequentially(typed.name);
      await email.click();
      await email.pressSequentially(typed.email);
      await message.click();
      await message.pressSequentially(typed.message);
      expect(await isHydrated(page), 'typed before hydration').toBe(false);
      expect(scripts.held(), 'the scripts were held back').toBeGreaterThan(0);

      scripts.release();
      await waitForHydration(page);
      await expect(name.inputValue()).resolves.toBe(typed.name);
      await expect(email.inputValue()).resolves.toBe(typed.email);
      await expect(message.inputValue()).resolves.toBe(typed.message);
      await expect(focusedField(page), 'focus stays in the field being typed in').resolves.toBe('message');

      // Typing on after hydration continues the same text.
      await page.keyboard.type(' Thanks!');
      await expect(message.inputValue()).resolves.toBe(`${typed.message} Thanks!`);

      // The widget arrives, the note goes, and the text typed before hydration is what is sent.
      const captcha = page.getByRole('checkbox', { name: FAKE_CAPTCHA_LABEL });
      await captcha.waitFor({ state: 'visible', timeout: 10_000 });
      await eventually(
        () => main.getByText('Loading the captcha…').count(),
        (n) => n === 0,
        'the loading note gone',
      );
      await page.evaluate((t) => {
        (window as unknown as { __fakeRecaptcha: { nextToken: string | null } }).__fakeRecaptcha.nextToken = t;
      }, `e2e-token-${lastName}`);
      await captcha.click();
      await eventually(() => send.isEnabled(), Boolean, 'Send enabled once the captcha is solved');
      await send.click();
      await eventually(
        () => textOf(main),
        (text) => text.includes(TEXT.sent),
        `"${TEXT.sent}"`,
        15_000,
      );
      const mails = await eventually(
        () => mailsContaining(lastName),
        (m) => m.length === 1,
        'the mail in the mailbox',
        10_000,
      );
      expect(mails[0]!.subject).toContain(typed.name);
      expect(mails[0]!.body.text ?? '').toContain(`${typed.message} Thanks!`);
      // Success clears the fields.
      await expect(name.inputValue()).resolves.toBe('');
      await expect(email.inputValue()).resolves.toBe('');
      await expect(message.inputValue()).resolves.toBe('');
    },
  );

  it.each(['phone', 'desktop'] as ViewportName[])('the scroll position survives hydration (%s)', async (viewport) => {
    const page = (await sessions.open({ viewport })).page;
    const scripts = await holdScripts(page);
    await arrive(page, '/privacy-policy');
    await page.mouse.move(200, 400);
    await page.evaluate(() => window.scrollTo(0, 700));
    await eventually(
      () => scrollY(page),
      (y) => y === 700,
      'scrolled to 700 px',
    );
    expect(await isHydrated(page)).toBe(false);

    scripts.release();
    await waitForHydration(page);
    // A few more frames: a late reset would show up now.
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 300)));
    expect(await scrollY(page), 'still where the visitor was reading').toBe(700);
  });

  it('the phone menu opens and its links lead to their pages before hydration', async () => {
    const page = (await sessions.open({ viewport: 'phone' })).page;
    const scripts = await holdScripts(page);
    await arrive(page, '/home');
    const toggle = menuToggle(page);
    for (const entry of MENU_ENTRIES) await expect(visibleEntry(page, entry).count(), entry).resolves.toBe(0);

    await toggle.click();
    for (const entry of MENU_ENTRIES) {
      await expect(visibleEntry(page, entry).getAttribute('href'), entry).resolves.toBe(`/${entry.toLowerCase()}`);
    }
    await toggle.click();
    await eventually(
      () => visibleEntry(page, 'About').count(),
      (n) => n === 0,
      'closed by the same button',
    );

    await toggle.click();
    await visibleEntry(page, 'About').click();
    // Not 'load': that waits for the scripts, which are still held.
    await page.waitForURL(/\/about$/, { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await isHydrated(page), 'the new page has not hydrated either').toBe(false);
    // The new page starts with the menu closed.
    for (const entry of MENU_ENTRIES) await expect(visibleEntry(page, entry).count(), entry).resolves.toBe(0);
    scripts.release();
    await waitForHydration(page);
  });

  it('a menu opened before hydration stays open, says so, and closes on choice afterwards', async () => {
    const page = (await sessions.open({ viewport: 'phone' })).page;
    const scripts = await holdScripts(page);
    await arrive(page, '/home');
    const toggle = menuToggle(page);
    await toggle.click();
    await visibleEntry(page, 'Blogs').waitFor();

    scripts.release();
    await waitForHydration(page);
    await expect(visibleEntry(page, 'Blogs').isVisible(), 'still open').resolves.toBe(true);
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');

    await visibleEntry(page, 'Blogs').click();
    await page.waitForURL(/\/blogs$/);
    await eventually(
      () => toggle.getAttribute('aria-expanded'),
      (v) => v === 'false',
      'menu closed',
    );
    await eventually(
      () => visibleEntry(page, 'Blogs').count(),
      (n) => n === 0,
      'entries hidden after choosing',
    );
  });
});

describe('starting at the top', () => {
  it.each(['phone', 'desktop'] as ViewportName[])('a route change after scrolling lands at the top (%s)', async (viewport) => {
    const page = (await sessions.reuse({ viewport })).page;
    await visit(page, '/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, 700));
    await eventually(
      () => scrollY(page),
      (y) => y === 700,
      'scrolled',
    );
    if (viewport === 'phone') await menuToggle(page).click();
    await visibleEntry(page, 'Projects').click();
    await page.waitForURL(/\/projects$/);
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'at the top of the new page',
    );
    // Back to the long page: it starts at the top too, not where the visitor left it.
    await page.goBack();
    await page.waitForURL(/\/privacy-policy$/);
    await eventually(
      () => scrollY(page),
      (y) => y === 0,
      'at the top after going back',
    );
  });

  it.each(['phone', 'desktop'] as ViewportName[])('a reload starts at the top (%s)', async (viewport) => {
    const page = (await sessions.reuse({ viewport })).page;
    await visit(page, '/privacy-policy');
    await page.evaluate(() => window.scrollTo(0, 700));
    await eventually(
      () => scrollY(page),
      (y) => y === 700,
      'scrolled',
    );
    await page.reload({ waitUntil: 'load' });
    await waitForHydration(page);
    expect(await scrollY(page)).toBe(0);
  });
});

describe('with JavaScript turned off', () => {
  it('every route shows its heading', async () => {
    const page = (await sessions.reuse({ viewport: 'phone', javaScriptEnabled: false })).page;
    for (const route of KNOWN_ROUTES) {
      const response = await page.goto(`${baseUrl()}${route}`, { waitUntil: 'load' });
      expect(response?.status(), route).toBe(200);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading.first().isVisible(), route).resolves.toBe(true);
      expect((await heading.first().innerText()).trim().length, route).toBeGreaterThan(0);
    }
  });

  it('the phone menu opens, closes and leads to every other page', async () => {
    const page = (await sessions.reuse({ viewport: 'phone', javaScriptEnabled: false })).page;
    await page.goto(`${baseUrl()}/home`, { waitUntil: 'load' });
    const toggle = menuToggle(page);
    await toggle.click();
    await expect(visibleEntry(page, 'Projects').isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await eventually(
      () => visibleEntry(page, 'Projects').count(),
      (n) => n === 0,
      'closed by Escape',
    );
    for (const entry of MENU_ENTRIES) {
      await toggle.click();
      await visibleEntry(page, entry).click();
      await page.waitForURL((url) => url.pathname === `/${entry.toLowerCase()}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await expect(visibleEntry(page, entry).count(), `menu closed on /${entry.toLowerCase()}`).resolves.toBe(0);
    }
  });

  it('the contact form says why it cannot send, and the headshot shows it is not available', async () => {
    const page = (await sessions.reuse({ viewport: 'desktop', javaScriptEnabled: false })).page;
    await page.goto(`${baseUrl()}/contact`, { waitUntil: 'load' });
    const main = page.getByRole('main');
    await expect(main.getByText(/needs JavaScript/).isVisible()).resolves.toBe(true);
    await expect(main.getByText('Loading the captcha…').isVisible(), 'no endless loading note').resolves.toBe(false);
    await expect(main.getByRole('button', { name: 'Send' }).isDisabled()).resolves.toBe(true);
    // Enter in a field cannot submit the form behind the visitor's back (its Send is disabled).
    await main.getByLabel('Full name', { exact: true }).fill('Ada Lovelace');
    await main.getByLabel('Full name', { exact: true }).press('Enter');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(new URL(page.url()).pathname).toBe('/contact');
    expect(sessions.current.requests.filter((r) => r.method === 'POST')).toEqual([]);
    const headshot = page.getByRole('button', { name: /fun fact/i }).filter({ visible: true });
    await expect(headshot.isDisabled()).resolves.toBe(true);
    await expect(headshot.getByText('Needs JavaScript').isVisible()).resolves.toBe(true);
    // A button that could never work is not offered: the in-page back-to-top under the projects.
    await page.goto(`${baseUrl()}/projects`, { waitUntil: 'load' });
    await page.getByText(TEXT.moreToCome).waitFor();
    await expect(page.getByRole('main').getByRole('button', { name: /top/i }).filter({ visible: true }).count()).resolves.toBe(0);
  });

  // One fallback page answers every unknown address of every language, and without scripts nothing can
  // tell the path's language: it shows the 404 page's words in each, each with its link home.
  it.each(['/anything', '/es/anything', '/es/projects/99'])(
    "an unknown address (%s) answers 404 with the 404 page's words and a visible link home in every language",
    async (path) => {
      const page = (await sessions.reuse({ viewport: 'phone', javaScriptEnabled: false })).page;
      sessions.current.allowConsoleError(/status of 404/);
      const response = await page.goto(`${baseUrl()}${path}`, { waitUntil: 'load' });
      expect(response?.status()).toBe(404);
      const heading = page.getByRole('heading', { level: 1 });
      await expect(heading.isVisible()).resolves.toBe(true);
      const main = page.getByRole('main');
      for (const code of LOCALE_CODES) {
        const { notFound } = (await loadCatalogue(code)).ui;
        expect(normalize(await heading.innerText()), code).toContain(notFound.heading);
        await expect(main.getByText(notFound.message, { exact: true }).isVisible(), code).resolves.toBe(true);
        const home = main.getByRole('link', { name: notFound.goHome, exact: true });
        await expect(home.isVisible(), code).resolves.toBe(true);
        await expect(home.getAttribute('href'), code).resolves.toBe(localized(code, code === DEFAULT_LOCALE ? '/' : '/home'));
        await expect(main.locator(`[lang="${code}"]`).getByRole('link', { name: notFound.goHome }).count(), code).resolves.toBe(1);
      }
      // Nothing says it is loading: without scripts it never would.
      await expect(
        page
          .getByText(/Loading the page|Cargando la página/)
          .filter({ visible: true })
          .count(),
      ).resolves.toBe(0);
      // Each link leads home in its language.
      const spanish = (await loadCatalogue('es')).ui.notFound.goHome;
      await main.getByRole('link', { name: spanish, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/es/home');
      await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('es');
      await page.goBack();
      await main.getByRole('link', { name: TEXT.goHome, exact: true }).click();
      await page.waitForURL((url) => url.pathname === '/home');
      await expect(page.getByRole('heading', { level: 1 }).first().isVisible()).resolves.toBe(true);
    },
  );

  // "/" is answered by the CDN's 302; every other language's root is a prerendered page with a meta refresh.
  it.each(['/', '/es', '/es/'])("a language's root (%s) leads to its home, replacing the history entry", async (root) => {
    const page = (await sessions.reuse({ viewport: 'desktop', javaScriptEnabled: false })).page;
    const locale = root === '/' ? DEFAULT_LOCALE : 'es';
    const before = localized(locale, '/about');
    await page.goto(`${baseUrl()}${before}`, { waitUntil: 'load' });
    await page.goto(`${baseUrl()}${root}`, { waitUntil: 'commit' });
    await page.waitForURL((url) => url.pathname === localized(locale, '/home'));
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe(locale);
    await page.goBack();
    await page.waitForURL((url) => url.pathname === before);
  });
});
