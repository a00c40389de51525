// @vitest-environment node
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';
import { woffToSfnt } from './woff';

const require = createRequire(import.meta.url);

it('turns a WOFF font into OpenType with the same tables, each where its directory says', () => {
  const woff = readFileSync(require.resolve('@fontsource/noto-sans-hebrew/files/noto-sans-hebrew-hebrew-400-normal.woff'));
  const sfnt = woffToSfnt(woff);
  expect(sfnt.readUInt32BE(0)).toBe(woff.readUInt32BE(4));
  const tables = sfnt.readUInt16BE(4);
  expect(tables).toBe(woff.readUInt16BE(12));
  const tags: string[] = [];
  for (let i = 0; i < tables; i++) {
    const entry = 12 + i * 16;
    tags.push(sfnt.toString('latin1', entry, entry + 4));
    const offset = sfnt.readUInt32BE(entry + 8);
    const length = sfnt.readUInt32BE(entry + 12);
    expect(offset % 4).toBe(0);
    expect(offset + length).toBeLessThanOrEqual(sfnt.length);
  }
  expect(tags).toEqual(expect.arrayContaining(['cmap', 'glyf', 'GSUB', 'head', 'OS/2']));
  // The head table's magic number, 0x5F0F3CF5 at byte 12, survives inflation.
  const head = tags.indexOf('head');
  expect(sfnt.readUInt32BE(sfnt.readUInt32BE(12 + head * 16 + 8) + 12)).toBe(0x5f0f3cf5);
});

it('refuses what is not WOFF 1.0', () => {
  expect(() => woffToSfnt(Buffer.from('wOF2\0\0\0\0\0\0\0\0'))).toThrow(/Not a WOFF 1\.0 file/);
});
