/**
 * The search flow, driver-neutral, run in each engine by the post flows (English and Spanish, on the
 * build with the fixture posts) and the right-to-left flows (the Arabic example): the control (or the
 * `/` shortcut) opens the dialog, typing a word lists the page that holds it, its result opens the page
 * in the same tab and document (a client-side navigation), and Back returns to where the search began.
 */
import { expect } from 'vitest';
import { eventually } from '../support/browser';
import { reachesPath, type EnginePage, type Target } from './engine';

export const OPEN_DIALOG = 'dialog.search-dialog[open]';
const FIELD: Target = { css: `${OPEN_DIALOG} input[type="search"]` };

/** The titles of the results shown, in order. */
export function resultTitles(page: EnginePage): Promise<string[]> {
  return page.evaluate(
    (css) => [...document.querySelectorAll(`${css} .search-result-title`)].map((el) => (el.textContent ?? '').trim()),
    OPEN_DIALOG,
  );
}

export function dialogOpen(page: EnginePage): Promise<boolean> {
  return page.evaluate((css) => document.querySelector(css) !== null, OPEN_DIALOG);
}

/**
 * Waits for the search control's behaviour: the layout's chunk fetched after hydration marks the search
 * links as opening a dialog (until then, as without JavaScript, they are plain links to /search).
 */
export async function searchReady(page: EnginePage): Promise<void> {
  await eventually(
    () => page.evaluate(() => document.querySelector('a.search-link[aria-haspopup="dialog"]') !== null),
    Boolean,
    'the search control ready',
    10_000,
  );
}

/** Opens the dialog from the visible search control (a click) or with the `/` shortcut. */
export async function openSearch(page: EnginePage, how: 'control' | 'shortcut'): Promise<void> {
  await searchReady(page);
  if (how === 'control') await page.click({ css: 'a.search-link', visible: true });
  else await page.press('/');
  await eventually(() => dialogOpen(page), Boolean, 'the search dialog open');
  // Focus starts in the field: the visitor types at once.
  await eventually(
    () => page.evaluate(() => document.activeElement?.matches('input[type="search"]') ?? false),
    Boolean,
    'focus in the search field',
  );
}

export interface SearchCase {
  /** What the visitor types. */
  query: string;
  /** The result to open, by its title. */
  title: string;
  /** The page it opens. */
  path: string;
  /** Text that page's main shows once there. */
  shows: string;
}

/**
 * From the current page (`from`, hydrated, dialog closed): search, open the result, check the page came
 * by a client-side navigation, go Back.
 */
export async function searchOpenAndBack(page: EnginePage, from: string, how: 'control' | 'shortcut', wanted: SearchCase): Promise<void> {
  // Kept only while the same document stays in this tab: a full page load would lose it.
  await page.evaluate(() => void ((window as unknown as { searchFlow: boolean }).searchFlow = true));
  await openSearch(page, how);
  await page.fill(FIELD, wanted.query);
  await eventually(
    () => resultTitles(page),
    (titles) => titles.includes(wanted.title),
    `a result "${wanted.title}" for "${wanted.query}"`,
    10_000,
  );
  const marked = await page.evaluate((css) => [...document.querySelectorAll(`${css} .search-excerpt mark`)].length, OPEN_DIALOG);
  expect(marked, 'matched words marked in the excerpts').toBeGreaterThan(0);
  await page.click({ css: `${OPEN_DIALOG} a.search-result`, name: new RegExp(wanted.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) });
  await reachesPath(page, wanted.path);
  await eventually(
    () => page.evaluate(() => (document.querySelector('main')?.textContent ?? '').replace(/\s+/g, ' ')),
    (text) => text.includes(wanted.shows),
    `the text of ${wanted.path}`,
    10_000,
  );
  expect(await dialogOpen(page), 'the dialog closed on choosing').toBe(false);
  expect(await page.evaluate(() => (window as unknown as { searchFlow?: boolean }).searchFlow ?? false), 'the same tab and document').toBe(
    true,
  );
  await page.back();
  await reachesPath(page, from, `${from} after Back`);
}

/** Escape closes the dialog and gives focus back to what opened it. */
export async function escapeCloses(page: EnginePage): Promise<void> {
  await openSearch(page, 'control');
  await page.press('Escape');
  await eventually(
    () => dialogOpen(page),
    (open) => !open,
    'the dialog closed by Escape',
  );
  await eventually(
    () => page.evaluate(() => document.activeElement?.matches('a.search-link') ?? false),
    Boolean,
    'focus back on the search control',
  );
}

/** Types a query and waits for `title` among the results, the dialog left open (for axe, a screenshot). */
export async function showResults(page: EnginePage, query: string, title: string): Promise<void> {
  await openSearch(page, 'control');
  await page.fill(FIELD, query);
  await eventually(
    () => resultTitles(page),
    (titles) => titles.includes(title),
    `a result "${title}" for "${query}"`,
    10_000,
  );
}
