import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  FULL_NAME_PATTERN,
  type ContactDraft,
  isValidCaptchaToken,
  isValidEmail,
  isValidFullName,
  isValidMessage,
  toRequestBody,
  validateContact,
} from './contact-rules';

const valid: ContactDraft = {
  fullName: 'Ada Lovelace',
  email: 'ada@example.com',
  message: 'Hello there, I have a project for you.',
  captchaToken: 'captcha-token',
};

describe("the form's messages, word for word", () => {
  it('keeps the exact texts', () => {
    expect(CONTACT_MESSAGES).toEqual({
      invalidName: 'Please enter a valid full name.',
      invalidEmail: 'Please enter a valid email address.',
      invalidMessage: 'Please enter a valid message.',
      missingCaptcha: 'Please check the reCAPTCHA box.',
      sendFailed: 'Sorry, something went wrong. Please try again later.',
      sent: 'Your message was sent!',
    });
  });
});

describe('full name: two or more name words separated by single spaces, letters of any script', () => {
  it.each([
    'Ada Lovelace',
    'José Álvarez',
    // A first name and a last name, either of several words: two surnames are the norm
    // in Spanish, and particles ("de la", "van der", "bin") are common in many languages.
    'María José Núñez',
    'Lucía Fernández García',
    'Juan de la Cruz',
    "Jean-Luc O'Neil",
    'Ada Byron Lovelace',
    'Ludwig van der Rohe',
    'Gabriel García Márquez',
    'Martin Luther King Jr.',
    'Abdullah bin Abdulaziz Al Saud',
    "Zoë O'Brien",
    'Zoë O\u2019Brien',
    'Anne-Marie Dupont',
    'Jean-Luc Picard-Smith',
    'J. Smith',
    'St. John',
    "D'Angelo Russell",
    'Søren Kierkegaard',
    'Łukasz Żółć',
    'Владимир Набоков',
    'Γιώργος Σεφέρης',
    '李 小龍',
    'محمد علي',
    'محمد\u200Cرضا شجریان', // Persian, written with a zero-width non-joiner
    // Right-to-left scripts with their own name punctuation.
    'عبد الله بن عمر', // Arabic, several words
    'مُحَمَّد عَلِيّ', // Arabic with vowel marks (harakat)
    'عبـــد الله', // Arabic tatweel (a letter to Unicode)
    'فاطمه زهرا\u200Cپور', // Persian, ZWNJ inside the last name
    'علی\u200Cاکبر هاشمی رفسنجانی',
    'دوست\u200Cمحمد نور\u200Cزاد',
    'دانيال ابن-خلدون', // joined by a plain hyphen
    'דוד בן־גוריון', // Hebrew, joined by the maqaf
    'דוד בן-גוריון',
    'ז\u05F3קלין כהן', // Hebrew geresh (Jacqueline)
    'ג\u05F3ורג\u05F3 לוי', // geresh inside and at the end (George)
    'ד\u05F4ר משה לוי', // gershayim (Dr)
    "ג'ורג' לוי", // the apostrophe Hebrew keyboards type for the geresh
    'שָׁלוֹם עֲלֵיכֶם', // Hebrew with vowel points (niqqud)
    'عمران خان', // Urdu
    'Ada لوفليس', // mixed scripts
    'राहुल शर्मा', // Devanagari vowel signs are combining marks
    'Jose\u0301 A\u0301lvarez', // decomposed accents (NFD)
    '  Ada Lovelace  ', // surrounding spaces are trimmed
    '  Juan de la Cruz ',
    `${'A'.repeat(49)} ${'B'.repeat(50)}`, // exactly nameMax (100)
    `${'Ab '.repeat(33)}C`, // exactly nameMax in 34 words
  ])('accepts %j', (name) => {
    expect(isValidFullName(name)).toBe(true);
  });

  it.each([
    '',
    '   ',
    'Ada',
    'Ada  Lovelace', // two spaces
    'Ada\tLovelace',
    'Ada\u00A0Lovelace', // no-break space
    'Madonna', // one word: a full name has a first and a last name
    'María  José Núñez', // a doubled space between any two words
    'María José  Núñez',
    'Juan de la\tCruz', // only a plain space separates words
    'Juan de la Cruz 3', // digits in any word
    'Juan de la <b>Cruz</b>', // markup
    'Juan de la -Cruz',
    'Juan de la Cruz\nBcc: x@example.com',
    'Ada Lovelace2',
    '4da Lovelace',
    'Ada Love_lace',
    'Ada Lovelace!',
    "'Ada Lovelace", // must start with a letter
    '.Ada Lovelace',
    '-Anne Dupont',
    'Anne- Dupont',
    'Anne--Marie Dupont',
    'Anne-Marie -Dupont',
    'Ada-',
    '\u200CAda Lovelace', // a joiner cannot start a part
    '\u200Cمحمد رضا',
    'محمد \u200Cرضا',
    '\u05F3קלין כהן', // nor a geresh or gershayim
    'ד\u05F4ר \u05F4משה',
    'בן־ גוריון', // nor a maqaf end one
    '־דוד לוי',
    'דוד בן־־גוריון',
    'دانيال ابن--خلدون',
    'محمد', // one word
    'محمد  علي', // two spaces
    'محمد علي٣', // Arabic-Indic digits are digits
    'محمد علي۳', // and so are Persian ones
    'محمد، علي', // the Arabic comma is no name punctuation
    'محمد علي؟',
    'محمد\u200Fعلي رضا', // a right-to-left mark is not a letter
    'דוד\u200E לוי', // nor a left-to-right mark
    '\u0301Ada Lovelace', // nor a lone combining mark
    'Ada\nLovelace',
    'Ada Lovelace\nBcc: x@example.com',
    '<b>Ada</b> Lovelace',
    `${'A'.repeat(50)} ${'B'.repeat(50)}`, // 101 characters
    `${'Ab '.repeat(33)}Cd`, // 101 characters in 34 words
  ])('rejects %j', (name) => {
    expect(isValidFullName(name)).toBe(false);
  });

  it.each([null, undefined, 42, ['Ada Lovelace'], { name: 'Ada Lovelace' }])('rejects non-strings (%j)', (name) => {
    expect(isValidFullName(name)).toBe(false);
  });

  it('answers in linear time, even for a long near-miss the length limit would not stop first', () => {
    // Words, hyphens and spaces can each be read one way only, so a failing match cannot backtrack
    // into an exponential search (the pattern is exported and could be used without nameMax).
    const nearMisses = [
      `${'Ab '.repeat(20_000)}!`,
      `${'A-b'.repeat(20_000)}-`,
      `${"a'.".repeat(20_000)} 1`,
      `${'ב\u05BEג\u05F3'.repeat(20_000)}\u05BE`,
    ];
    const started = performance.now();
    for (const text of nearMisses) expect(FULL_NAME_PATTERN.test(text)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });
});

describe('full name in right-to-left scripts (property)', () => {
  const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
  /** Arabic letters (ء…ي), Persian and Urdu additions (پ چ ژ گ ک ی ے ٹ ڈ ڑ), Hebrew letters (א…ת). */
  const SCRIPTS = {
    arabic: [...range(0x0621, 0x063a), ...range(0x0641, 0x064a), 'پ', 'چ', 'ژ', 'گ', 'ک', 'ی', 'ے', 'ٹ', 'ڈ', 'ڑ'],
    hebrew: range(0x05d0, 0x05ea),
  };
  /** What may follow a letter inside a part, by script: vowel marks, and the script's name punctuation. */
  const INSIDE = { arabic: ['\u064E', '\u0650', '\u0651', '\u200C'], hebrew: ['\u05B7', '\u05BC', '\u05F3', '\u05F4', "'"] };
  const JOINERS = { arabic: ['-'], hebrew: ['-', '\u05BE'] };

  const nameIn = (script: keyof typeof SCRIPTS) => {
    const letter = fc.constantFrom(...SCRIPTS[script]);
    const part = fc
      .tuple(
        letter,
        fc.array(fc.oneof({ weight: 4, arbitrary: letter }, { weight: 1, arbitrary: fc.constantFrom(...INSIDE[script]) }), {
          maxLength: 6,
        }),
      )
      .map(([first, rest]) => first + rest.join(''));
    const word = fc
      .tuple(part, fc.array(fc.tuple(fc.constantFrom(...JOINERS[script]), part), { maxLength: 1 }))
      .map(([first, more]) => first + more.map(([joiner, next]) => joiner + next).join(''));
    return fc.array(word, { minLength: 2, maxLength: 4 }).map((words) => words.join(' '));
  };
  const anyName = fc.oneof(nameIn('arabic'), nameIn('hebrew'));

  it('accepts two or more words of Arabic, Persian or Hebrew letters with their marks and name punctuation', () => {
    fc.assert(fc.property(anyName, (name) => isValidFullName(name)));
  });

  // Inside the name: the spaces around it are trimmed before the check.
  it('rejects the same names with a digit (Western, Arabic-Indic or Persian), a doubled space or Arabic punctuation inside', () => {
    const spoiler = fc.constantFrom('3', '\u0663', '\u06F3', '  ', '\u061F', '\u060C');
    fc.assert(
      fc.property(anyName, spoiler, fc.nat(), (name, bad, at) => {
        const i = 1 + (at % (name.length - 1));
        return !isValidFullName(name.slice(0, i) + bad + name.slice(i));
      }),
    );
  });

  it('rejects a part that starts with a mark or name punctuation', () => {
    const lead = fc.constantFrom('\u05F3', '\u05F4', '\u05BE', '\u200C', '\u064E', '-', "'");
    fc.assert(fc.property(anyName, lead, (name, mark) => !isValidFullName(mark + name)));
  });
});

describe('email: a simple address whose top-level part has 2 to 4 characters', () => {
  it.each([
    'ada@example.com',
    'a@b.co',
    'ADA@EXAMPLE.COM',
    'first.last+tag@mail.example.co.uk',
    'user_name%x@sub-domain.example.info',
    'x@example.io',
    '  ada@example.com  ',
  ])('accepts %j', (email) => {
    expect(isValidEmail(email)).toBe(true);
  });

  it.each([
    '',
    'ada',
    'ada@',
    '@example.com',
    'ada@example',
    'ada@example.c', // 1-character top-level part
    'ada@example.museum', // 6 characters
    'ada@example.co1',
    'ada@@example.com',
    'ada lovelace@example.com',
    'ada@exa mple.com',
    'ada@example..com',
    'ada@.example.com',
    'josé@example.com',
    'ada@example.com\nBcc: victim@example.com',
    'ada@example.com, eve@example.com',
    '<ada@example.com>',
    `${'a'.repeat(CONTACT_LIMITS.emailMax)}@example.com`,
  ])('rejects %j', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });

  it.each([null, 7, {}])('rejects non-strings (%j)', (email) => {
    expect(isValidEmail(email)).toBe(false);
  });
});

describe('message: longer than 3 characters', () => {
  it.each([
    'abcd',
    '  abcd  ',
    'Hello, I would like to talk about a project.',
    'Line one\nLine two',
    '😀😀😀😀',
    'ab\tcd',
    'x'.repeat(CONTACT_LIMITS.messageMax),
  ])('accepts %j', (message) => {
    expect(isValidMessage(message)).toBe(true);
  });

  it.each([
    '',
    'abc',
    '   abc   ',
    '      ',
    '\n\n\n\n',
    '😀😀😀', // 3 characters, though 6 UTF-16 units
    '\u0000\u0000\u0000\u0000', // invisible: nothing would reach the owner
    '\u200b\u200b\u200b\u200b',
    'ab\u0007\u0007c',
    'x'.repeat(CONTACT_LIMITS.messageMax + 1),
  ])('rejects %j', (message) => {
    expect(isValidMessage(message)).toBe(false);
  });

  it.each([null, 1234, ['abcd']])('rejects non-strings (%j)', (message) => {
    expect(isValidMessage(message)).toBe(false);
  });
});

describe('captcha token', () => {
  it('needs a non-empty string within the limit', () => {
    expect(isValidCaptchaToken('t')).toBe(true);
    expect(isValidCaptchaToken('t'.repeat(CONTACT_LIMITS.captchaTokenMax))).toBe(true);
    expect(isValidCaptchaToken('t'.repeat(CONTACT_LIMITS.captchaTokenMax + 1))).toBe(false);
    expect(isValidCaptchaToken('')).toBe(false);
    expect(isValidCaptchaToken(null)).toBe(false);
    expect(isValidCaptchaToken(undefined)).toBe(false);
    expect(isValidCaptchaToken(5)).toBe(false);
  });

  it('takes only the characters a reCAPTCHA token is made of (A-Z a-z 0-9 _ -)', () => {
    expect(isValidCaptchaToken('03AFcWeA6_x-Z9')).toBe(true);
    for (const bad of ['a b', 'tok=', 'a+b/c', 'tök', 'x\n', '<script>', 'a.b']) expect(isValidCaptchaToken(bad), bad).toBe(false);
  });
});

describe('validateContact: the order of the checks (name, email, message, captcha)', () => {
  const bad = { fullName: 'Ada', email: 'nope', message: 'no', captchaToken: null };

  it.each([
    ['every field bad', bad, 'fullName', CONTACT_MESSAGES.invalidName],
    ['name fixed', { ...bad, fullName: valid.fullName }, 'email', CONTACT_MESSAGES.invalidEmail],
    ['name and email fixed', { ...bad, fullName: valid.fullName, email: valid.email }, 'message', CONTACT_MESSAGES.invalidMessage],
    ['only the captcha missing', { ...valid, captchaToken: null }, 'captcha', CONTACT_MESSAGES.missingCaptcha],
    ['captcha solved but name bad', { ...valid, fullName: 'Ada' }, 'fullName', CONTACT_MESSAGES.invalidName],
    ['only the message bad', { ...valid, message: 'abc' }, 'message', CONTACT_MESSAGES.invalidMessage],
    ['only the email bad', { ...valid, email: 'a@b.c' }, 'email', CONTACT_MESSAGES.invalidEmail],
  ] as const)('%s → %s', (_label, draft, field, error) => {
    expect(validateContact(draft)).toEqual({ ok: false, field, error });
  });

  it('returns the trimmed value when every rule passes', () => {
    const result = validateContact({
      fullName: '  José Álvarez ',
      email: ' jose@example.com ',
      message: '  Hola, ¿qué tal?  ',
      captchaToken: 'tok',
    });
    expect(result).toEqual({
      ok: true,
      value: { fullName: 'José Álvarez', email: 'jose@example.com', message: 'Hola, ¿qué tal?', captchaToken: 'tok' },
    });
  });
});

describe('toRequestBody', () => {
  it('has exactly the four fields the browser posts', () => {
    const body = toRequestBody({ fullName: 'Ada Lovelace', email: 'ada@example.com', message: 'Hello', captchaToken: 'tok' });
    expect(body).toStrictEqual({
      fullName: 'Ada Lovelace',
      email: 'ada@example.com',
      message: 'Hello',
      'g-recaptcha-response': 'tok',
    });
    expect(Object.keys(body)).toEqual(['fullName', 'email', 'message', 'g-recaptcha-response']);
  });
});
