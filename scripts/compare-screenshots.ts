/**
 * `npx tsx scripts/compare-screenshots.ts DIR_A DIR_B [NAME_PATTERN]`: compares the PNG files of the
 * same name in two folders of screenshots (scripts/screenshots.ts, SCREENSHOTS_DIR) pixel by pixel in
 * Chromium, and prints each pair's differing pixels and the box around them; exits 1 when any pair
 * differs or a file is missing on one side. Used to show that a change leaves pages as they were
 * (e.g. the English and Spanish pages across the right-to-left work).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../tools/chromium';

/** Runs in the page (a string: the page has DOM types and no bundler helpers): decodes both PNGs and counts differing pixels. */
const COMPARE_IN_PAGE = `async (pa, pb) => {
  const load = async (data) => createImageBitmap(await (await fetch('data:image/png;base64,' + data)).blob());
  const [ia, ib] = await Promise.all([load(pa), load(pb)]);
  if (ia.width !== ib.width || ia.height !== ib.height) return { size: ia.width + '×' + ia.height + ' vs ' + ib.width + '×' + ib.height, pixels: -1, box: '' };
  const pixelsOf = (image) => {
    const context = new OffscreenCanvas(image.width, image.height).getContext('2d');
    context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height).data;
  };
  const da = pixelsOf(ia);
  const db = pixelsOf(ib);
  let pixels = 0, x0 = Infinity, y0 = Infinity, x1 = -1, y1 = -1;
  for (let i = 0; i < da.length; i += 4) {
    if (da[i] !== db[i] || da[i + 1] !== db[i + 1] || da[i + 2] !== db[i + 2] || da[i + 3] !== db[i + 3]) {
      pixels += 1;
      const p = i / 4, x = p % ia.width, y = Math.floor(p / ia.width);
      x0 = Math.min(x0, x); y0 = Math.min(y0, y); x1 = Math.max(x1, x); y1 = Math.max(y1, y);
    }
  }
  return { size: ia.width + '×' + ia.height, pixels, box: pixels ? 'x ' + x0 + '–' + x1 + ', y ' + y0 + '–' + y1 : '' };
}`;

const [dirA, dirB, pattern = '.'] = process.argv.slice(2);
if (!dirA || !dirB) throw new Error('Usage: npx tsx scripts/compare-screenshots.ts DIR_A DIR_B [NAME_PATTERN]');
const match = new RegExp(pattern);
const names = readdirSync(dirA)
  .filter((n) => n.endsWith('.png') && match.test(n))
  .sort();
const browser = await chromium.launch({ executablePath: chromiumPath(), args: CHROMIUM_ARGS, headless: true });
let failures = 0;
try {
  const page = await browser.newPage();
  for (const name of names) {
    let b: string;
    try {
      b = readFileSync(path.join(dirB, name)).toString('base64');
    } catch {
      console.log(`${name}: missing in ${dirB}`);
      failures += 1;
      continue;
    }
    const a = readFileSync(path.join(dirA, name)).toString('base64');
    const result = (await page.evaluate(`(${COMPARE_IN_PAGE})(${JSON.stringify(a)}, ${JSON.stringify(b)})`)) as {
      size: string;
      pixels: number;
      box: string;
    };
    if (result.pixels !== 0) failures += 1;
    console.log(
      `${name}: ${result.pixels === 0 ? 'identical' : result.pixels < 0 ? `sizes differ (${result.size})` : `${result.pixels} pixels differ (${result.box})`}`,
    );
  }
} finally {
  await browser.close();
}
console.log(`${names.length - failures} of ${names.length} identical`);
process.exitCode = failures === 0 ? 0 : 1;
