import { describe, expect, it } from 'vitest';
import { buildContactEmail, bodySafe, escapeHtml, headerSafe, subjectFor, SUBJECT_NAME_MAX } from './email';

const addresses = { ownerEmail: 'owner@example.com', senderEmail: 'site@example.com' };
const received = new Date(Date.UTC(2026, 0, 2, 3, 4, 5));
const message = {
  fullName: 'Ann Lee',
  email: 'ann@example.org',
  message: 'Hi & <welcome>',
  captchaToken: 'token',
};

describe('escapeHtml', () => {
  it('escapes every character that means something in HTML text or attributes', () => {
    expect(escapeHtml(`<a href="x" onclick='y'>&\`=</a>`)).toBe(
      '&lt;a href&#61;&quot;x&quot; onclick&#61;&#39;y&#39;&gt;&amp;&#96;&#61;&lt;/a&gt;',
    );
  });
  it('escapes an already escaped entity again, so it shows as typed', () => {
    expect(escapeHtml('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
  });
  it('leaves letters of any script and emoji alone', () => {
    expect(escapeHtml('José 東京 🎉')).toBe('José 東京 🎉');
  });
});

describe('headerSafe and the subject', () => {
  it.each([
    ['CR and LF', 'Ann\r\nBcc: evil@example.com', 'AnnBcc: evil@example.com'],
    ['a lone LF', 'Ann\nLee', 'AnnLee'],
    ['NUL, tab and DEL', 'A\u0000n\tn\u007f', 'Ann'],
    ['C1 controls', 'Ann\u0085\u009bLee', 'AnnLee'],
    ['U+2028 and U+2029', 'Ann\u2028Lee\u2029', 'AnnLee'],
    ['bidi overrides and zero-width characters', '\u202eAnn\u200b Lee\u2066', 'Ann Lee'],
  ])('strips %s', (_label, input, expected) => {
    expect(headerSafe(input, 100)).toBe(expected);
  });

  it('collapses runs of spaces and trims', () => {
    expect(headerSafe('  Ann    Lee  ', 100)).toBe('Ann Lee');
  });

  it('caps the length by code points, never splitting a surrogate pair', () => {
    const capped = headerSafe('😀'.repeat(200), 10);
    expect(Array.from(capped)).toHaveLength(10);
    expect(capped.endsWith('…')).toBe(true);
    expect(capped).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
  });

  it('names the visitor in the subject, capped', () => {
    expect(subjectFor('Ann Lee')).toBe('Portfolio contact from Ann Lee');
    const long = subjectFor(`Ann ${'a'.repeat(500)}`);
    expect(Array.from(long).length).toBe('Portfolio contact from '.length + SUBJECT_NAME_MAX);
  });
});

describe('bodySafe', () => {
  it('unifies line endings and keeps tabs', () => {
    expect(bodySafe('a\r\nb\rc\nd\te\u2028f\u2029g')).toBe('a\nb\nc\nd\te\nf\ng');
  });
  it('drops other control characters and bidi overrides', () => {
    expect(bodySafe('a\u0000b\u001bc\u007fd\u0085e\u202ef\u2067g')).toBe('abcdefg');
  });
  it('replaces lone surrogates, which UTF-8 cannot carry, and keeps pairs', () => {
    expect(bodySafe('x\uD800y\uDC00z😀')).toBe('x\uFFFDy\uFFFDz😀');
  });
});

describe('buildContactEmail', () => {
  it('builds one SES request: sender as Source, owner as only recipient, visitor as Reply-To', () => {
    const input = buildContactEmail(message, addresses, received);
    expect(input.Source).toBe('site@example.com');
    expect(input.Destination).toEqual({ ToAddresses: ['owner@example.com'] });
    expect(input.ReplyToAddresses).toEqual(['ann@example.org']);
    expect(input.Message?.Subject).toEqual({ Data: 'Portfolio contact from Ann Lee', Charset: 'UTF-8' });
    expect(input.Message?.Body?.Text).toEqual({ Data: expect.stringContaining('Hi & <welcome>'), Charset: 'UTF-8' });
    expect(input.Message?.Body?.Html?.Charset).toBe('UTF-8');
    expect(input.Message?.Body?.Html?.Data).toContain('Hi &amp; &lt;welcome&gt;');
    expect(input.Message?.Body?.Text?.Data).toContain('Received: 2026-01-02T03:04:05.000Z');
  });

  it('never lets visitor text open a tag or an attribute in the HTML body', () => {
    const hostile = {
      ...message,
      fullName: 'O\'Brien"><svg onload=alert(1)> Lee',
      message: "\"><script>alert(1)</script><a href='javascript:x'>",
    };
    const html = buildContactEmail(hostile, addresses, received).Message?.Body?.Html?.Data ?? '';
    const visitorPart = html.slice(html.indexOf('<table'), html.lastIndexOf('<p style'));
    // The only tags left are the template's own.
    const tags = visitorPart.match(/<[a-z/][^>]*>/gi) ?? [];
    for (const tag of tags) expect(tag).toMatch(/^<\/?(table|tr|th|td|h2|div)[ >]/);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<svg');
  });

  it('refuses a Reply-To that could split a header (defence behind the shared rules)', () => {
    expect(() => buildContactEmail({ ...message, email: 'a@b.com\r\nBcc: c@d.com' }, addresses, received)).toThrow(TypeError);
    expect(() => buildContactEmail({ ...message, email: 'a@b.com, c@d.com' }, addresses, received)).toThrow(TypeError);
  });
});
