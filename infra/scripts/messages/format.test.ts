/** How the archive's items are read and printed, down to malformed ones and hostile text. */
import { describe, expect, it } from 'vitest';
import { toMessage } from './archive';
import { firstLine, formatList, formatMessage, isoFromEpochSeconds, terminalSafe, toJson, when } from './format';

describe('reading an item', () => {
  it('keeps the known attributes, drops the internals, and never throws on a malformed one', () => {
    const message = toMessage({
      id: 'x',
      receivedAt: 'not a date',
      name: 42,
      email: undefined,
      message: null,
      status: 'sent',
      attempts: 'three',
      expiresAt: 'soon',
      language: '',
      lastError: 7,
      claimedUntil: 123,
      idempotencyHash: 'h',
    });
    expect(message).toEqual({ id: 'x', receivedAt: 'not a date', name: '42', email: '', message: '', status: 'sent', attempts: 0 });
    expect(toJson(message)).toEqual({ ...message, expiresAt: null });
  });
});

describe('printing', () => {
  it('turns epoch seconds into ISO 8601, and nonsense into null', () => {
    expect(isoFromEpochSeconds(1_795_000_000)).toBe('2026-11-18T11:06:40.000Z');
    expect(isoFromEpochSeconds(undefined)).toBeNull();
    expect(isoFromEpochSeconds(1e20)).toBeNull();
  });

  it('shows the time received in UTC to the minute, or the stored text when it is no date', () => {
    expect(when('2026-11-25T19:45:12.345Z')).toBe('2026-11-25 19:45 UTC');
    expect(when('2026-11-25T21:45:12+02:00')).toBe('2026-11-25 19:45 UTC');
    expect(when('yesterday\x1b[31m')).toBe('yesterday\uFFFD[31m');
  });

  it('takes the first non-blank line of a message and shortens it by characters, not bytes', () => {
    expect(firstLine('\r\n  \n  Hello there  \nsecond', 60)).toBe('Hello there');
    expect(firstLine('ñandú '.repeat(20), 10)).toBe('ñandú ñan…');
    expect(firstLine('', 10)).toBe('');
  });

  it('neutralizes every control character a visitor could send, escape first', () => {
    expect(terminalSafe('a\x1b[2Jb\x07c\rd\u2028e\x9bf')).toBe('a\uFFFD[2Jb c d e f');
    expect(terminalSafe('plain, accents é and emoji 🙂')).toBe('plain, accents é and emoji 🙂');
  });

  it('keeps the flags that named the archive in its show hint, so the hint reads the same archive', () => {
    const base = {
      receivedAt: '2026-11-25T10:00:00.000Z',
      email: 'a@b.dev',
      message: 'hi',
      status: 'sent',
      attempts: 1,
      id: 'one',
      name: 'A',
    };
    expect(formatList([base], 'here').split('\n')[0]).toContain('(`npm run messages -- show ID` prints one in full)');
    expect(formatList([base], 'here', ' --local').split('\n')[0]).toContain('(`npm run messages -- --local show ID` prints one in full)');
    expect(formatList([base], 'here', ' --stage pr-7').split('\n')[0]).toContain('`npm run messages -- --stage pr-7 show ID`');
  });

  it('lines the columns up whatever the lengths', () => {
    const base = { receivedAt: '2026-11-25T10:00:00.000Z', email: 'a@b.dev', message: 'hi', status: 'sent', attempts: 1 };
    const text = formatList(
      [
        { ...base, id: 'one', name: 'A' },
        { ...base, id: 'two', name: 'A much longer name' },
      ],
      'somewhere',
    );
    const [, header, first, second] = text.split('\n');
    const column = (line: string) => line.indexOf('a@b.dev');
    expect(column(first!)).toBe(column(second!));
    expect(header!.indexOf('EMAIL')).toBe(column(first!));
  });

  it('prints one message with only the fields it has, and every line of its text', () => {
    const text = formatMessage({
      id: 'id-1',
      receivedAt: '2026-11-25T10:00:00.000Z',
      name: 'Ada',
      email: 'ada@example.org',
      message: 'one\ntwo\x1b',
      status: 'pending',
      attempts: 0,
    });
    expect(text).toBe(
      [
        'id        id-1',
        'received  2026-11-25 10:00 UTC',
        'status    pending',
        'attempts  0',
        'name      Ada',
        'email     ada@example.org',
        'message:',
        '  one',
        '  two\uFFFD',
      ].join('\n'),
    );
  });
});
