import { act, fireEvent, render, screen, waitFor, within, inEnglish } from '../../../test/render';
import userEvent from '@testing-library/user-event';
import { forwardRef, useImperativeHandle } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const mockEnv = vi.hoisted(() => ({
  contactEndpoint: '/api/contact-under-test',
  recaptchaSiteKey: 'test-site-key-0123456789',
}));
vi.mock('../../config/env', () => ({ env: mockEnv }));

/** What the fake widget exposes to the tests. */
const captcha = vi.hoisted(() => ({
  reset: vi.fn(),
  props: null as null | { size?: string; sitekey?: string; hl?: string },
  tokens: 0,
  /** What the form gave react-async-script to call once Google's script has loaded or failed. */
  scriptLoaded: null as null | ((script: { errored?: boolean }) => void),
}));

// A stand-in for react-google-recaptcha: a "Solve captcha" button calls onChange with a fresh
// token, "Expire captcha" behaves like Google's expiry, and the ref exposes reset().
vi.mock('react-google-recaptcha', () => {
  interface FakeProps {
    size?: string;
    sitekey: string;
    hl?: string;
    onChange?: (token: string | null) => void;
    onExpired?: () => void;
    asyncScriptOnLoad?: (script: { errored?: boolean }) => void;
  }
  const FakeReCAPTCHA = forwardRef<{ reset: () => void }, FakeProps>(function FakeReCAPTCHA(props, ref) {
    useImperativeHandle(ref, () => ({ reset: captcha.reset }));
    captcha.props = { size: props.size, sitekey: props.sitekey, hl: props.hl };
    captcha.scriptLoaded = props.asyncScriptOnLoad ?? null;
    return (
      <div data-testid="recaptcha">
        <button type="button" onClick={() => props.onChange?.(`token-${++captcha.tokens}`)}>
          Solve captcha
        </button>
        <button
          type="button"
          onClick={() => {
            props.onChange?.(null);
            props.onExpired?.();
          }}
        >
          Expire captcha
        </button>
      </div>
    );
  });
  return { default: FakeReCAPTCHA };
});

import { CONTACT_LIMITS } from '../../../../contract/contact-rules';
import { ui } from '../../../content/ui';
import { handle as spanishHandle } from '../../../content/es/index';
import { LocaleProvider } from '../../i18n/locale-context';
import { ContactForm } from './ContactForm';
import { HydrationProvider } from '../../components/use-hydrated';

const { captchaFailed: CAPTCHA_FAILED, captchaLoading: CAPTCHA_LOADING, captchaNeedsScripts: CAPTCHA_NEEDS_SCRIPTS } = ui.contact;
import { postContact } from './contact-api';

const SENT = 'Your message was sent!';
const FAILED = 'Sorry, something went wrong. Please try again later.';

const fetchMock = vi.fn<typeof fetch>();

/** A response whose body must never be read: any 2xx is success. */
function response(status: number): Response {
  const unread = () => {
    throw new Error('the response body must not be read');
  };
  return { ok: status >= 200 && status < 300, status, json: unread, text: unread, body: null } as unknown as Response;
}

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const fields = () => ({
  fullName: screen.getByLabelText('Full name') as HTMLInputElement,
  email: screen.getByLabelText('Email') as HTMLInputElement,
  message: screen.getByLabelText('Message') as HTMLTextAreaElement,
});
const sendButton = () => screen.getByRole('button', { name: /^(Send|Sending\.\.\.)$/ });

async function fill(user: ReturnType<typeof userEvent.setup>, values: { fullName: string; email: string; message: string }) {
  const { fullName, email, message } = fields();
  if (values.fullName) await user.type(fullName, values.fullName);
  if (values.email) await user.type(email, values.email);
  if (values.message) await user.type(message, values.message);
}

const good = { fullName: 'José Álvarez', email: 'jose@example.com', message: 'Hello, can we talk about a project?' };

function setup() {
  const user = userEvent.setup();
  render(<ContactForm />);
  return user;
}

beforeEach(() => {
  captcha.reset.mockReset();
  captcha.props = null;
  captcha.tokens = 0;
  captcha.scriptLoaded = null;
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('ContactForm fields', () => {
  it('has labelled fields with the right types, autocomplete and limits', () => {
    setup();
    const { fullName, email, message } = fields();
    expect(fullName).toHaveAttribute('type', 'text');
    expect(fullName).toHaveAttribute('autocomplete', 'name');
    expect(fullName).toHaveAttribute('maxlength', String(CONTACT_LIMITS.nameMax));
    expect(email).toHaveAttribute('type', 'email');
    expect(email).toHaveAttribute('autocomplete', 'email');
    expect(email).toHaveAttribute('maxlength', String(CONTACT_LIMITS.emailMax));
    expect(message.tagName).toBe('TEXTAREA');
    expect(message).toHaveAttribute('maxlength', String(CONTACT_LIMITS.messageMax));
  });

  it("renders the compact captcha with the configured site key, in the page's language", () => {
    setup();
    expect(captcha.props).toEqual({ size: 'compact', sitekey: 'test-site-key-0123456789', hl: 'en' });
  });

  it('asks reCAPTCHA for Spanish on a Spanish page (hl=es)', () => {
    render(
      <LocaleProvider bundle={spanishHandle.localeBundle}>
        <ContactForm />
      </LocaleProvider>,
    );
    expect(captcha.props).toEqual({ size: 'compact', sitekey: 'test-site-key-0123456789', hl: 'es' });
  });
});

describe('Send and the captcha', () => {
  it('is disabled until the captcha is solved, and disabled again when it expires', async () => {
    const user = setup();
    await fill(user, good);
    expect(sendButton()).toBeDisabled();
    expect(sendButton()).toHaveTextContent('Send');

    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    expect(sendButton()).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Expire captcha' }));
    expect(sendButton()).toBeDisabled();
  });

  it('shows the captcha message if the form is submitted without a solved captcha', async () => {
    const user = setup();
    await fill(user, good);
    // Enter cannot submit while Send is disabled; a submit event still must not slip through.
    fireEvent.submit(fields().message.closest('form')!);
    expect(await screen.findByRole('alert')).toHaveTextContent('Please check the reCAPTCHA box.');
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('validation: the first failing rule in order, its exact message, the field marked', () => {
  it.each([
    ['a one-word name', { ...good, fullName: 'José' }, 'Full name', 'Please enter a valid full name.'],
    ['a name with digits', { ...good, fullName: 'R2 D2' }, 'Full name', 'Please enter a valid full name.'],
    ['a name with a doubled space', { ...good, fullName: 'Juan de  la Cruz' }, 'Full name', 'Please enter a valid full name.'],
    ['a name with markup', { ...good, fullName: 'Juan <b>de</b> la Cruz' }, 'Full name', 'Please enter a valid full name.'],
    ['an email without top-level part', { ...good, email: 'jose@example' }, 'Email', 'Please enter a valid email address.'],
    ['a 5-letter top-level part', { ...good, email: 'jose@example.abcde' }, 'Email', 'Please enter a valid email address.'],
    ['a 3-character message', { ...good, message: 'Hey' }, 'Message', 'Please enter a valid message.'],
    ['an empty form (name is checked first)', { fullName: '', email: '', message: '' }, 'Full name', 'Please enter a valid full name.'],
    [
      'bad email and message (email before message)',
      { ...good, email: 'x', message: 'no' },
      'Email',
      'Please enter a valid email address.',
    ],
  ])('%s', async (_label, values, label, text) => {
    const user = setup();
    await fill(user, values);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());

    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent(text);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    const field = screen.getByLabelText(label);
    expect(field).toHaveAttribute('aria-invalid', 'true');
    expect(field).toHaveAttribute('aria-describedby', alert.id);
    expect(field).toHaveFocus();
    for (const other of Object.values(fields())) {
      if (other !== field) expect(other).not.toHaveAttribute('aria-invalid');
    }
    expect(fetchMock).not.toHaveBeenCalled();
    // Reset on every submit, even a refused one: the token is gone and Send is disabled again.
    expect(captcha.reset).toHaveBeenCalledTimes(1);
    expect(sendButton()).toBeDisabled();
  });

  it('accepts names of any script, hyphenated names, and last names of several words', async () => {
    fetchMock.mockResolvedValue(response(200));
    const user = setup();
    const names = [
      'José Álvarez',
      "Zoë O'Brien",
      'Anne-Marie Dupont',
      'Владимир Набоков',
      'María José Núñez',
      'Lucía Fernández García',
      'Juan de la Cruz',
      "Jean-Luc O'Neil",
    ];
    for (const fullName of names) {
      await user.type(fields().fullName, fullName);
      await user.type(fields().email, 'x@example.com');
      await user.type(fields().message, 'Hello there');
      await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
      await user.click(sendButton());
      expect(await screen.findByText(SENT)).toBeInTheDocument();
      expect(JSON.parse(String(fetchMock.mock.lastCall?.[1]?.body)).fullName).toBe(fullName);
    }
    expect(fetchMock).toHaveBeenCalledTimes(names.length);
  });
});

describe('sending', () => {
  it('posts exactly {fullName, email, message, g-recaptcha-response} as JSON to the configured endpoint', async () => {
    fetchMock.mockResolvedValue(response(200));
    const user = setup();
    await fill(user, { ...good, fullName: '  José Álvarez ' });
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());
    await screen.findByText(SENT);

    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/contact-under-test');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('content-type')).toBe('application/json');
    expect(init?.signal).toBeInstanceOf(AbortSignal);
    const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
    expect(body).toStrictEqual({
      fullName: 'José Álvarez',
      email: 'jose@example.com',
      message: 'Hello, can we talk about a project?',
      'g-recaptcha-response': 'token-1',
    });
    expect(Object.keys(body)).toEqual(['fullName', 'email', 'message', 'g-recaptcha-response']);
  });

  it('sends one Idempotency-Key per message: kept after a failure, new after a success or an edit; and the page language', async () => {
    document.documentElement.lang = 'es';
    fetchMock
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(response(503))
      .mockResolvedValueOnce(response(200))
      .mockResolvedValueOnce(response(500))
      .mockResolvedValueOnce(response(500));
    const user = setup();
    const send = async () => {
      await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
      await user.click(sendButton());
      await waitFor(() => expect(sendButton()).toHaveTextContent(/^Send$/));
    };
    const keys = () => fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get('idempotency-key'));
    await fill(user, good);
    await send(); // network failure
    await send(); // 503: the same message again
    await send(); // success
    expect(keys()[0]).toMatch(/^"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}"$/);
    expect(keys()[1]).toBe(keys()[0]);
    expect(keys()[2]).toBe(keys()[0]);
    await fill(user, good);
    await send(); // a new message after the success: a new key
    expect(keys()[3]).not.toBe(keys()[0]);
    await user.type(fields().message, '!');
    await send(); // edited after the failure: a new message, a new key
    expect(keys()[4]).not.toBe(keys()[3]);
    expect(fetchMock.mock.calls.map(([, init]) => new Headers(init?.headers).get('content-language'))).toEqual(Array(5).fill('es'));
    document.documentElement.lang = '';
  });

  it("shows 'Sending...' while the request is held, blocks a second submit, then succeeds", async () => {
    const held = deferred<Response>();
    fetchMock.mockReturnValue(held.promise);
    const user = setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());

    expect(sendButton()).toHaveTextContent('Sending...');
    expect(sendButton()).toBeDisabled();
    expect(fields().message.closest('form')).toHaveAttribute('aria-busy', 'true');
    // Even with a fresh token and a forced submit event, nothing is sent twice.
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    fireEvent.submit(fields().message.closest('form')!);
    fireEvent.submit(fields().message.closest('form')!);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    await act(async () => held.resolve(response(201)));
    expect(screen.getByRole('status')).toHaveTextContent(SENT);
    expect(sendButton()).toHaveTextContent('Send');
  });

  it.each([200, 201, 202, 204, 299])('treats %i as success: message shown, fields and captcha cleared, body not read', async (status) => {
    fetchMock.mockResolvedValue(response(status));
    const user = setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());

    expect(await screen.findByRole('status')).toHaveTextContent(SENT);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    const { fullName, email, message } = fields();
    expect(fullName).toHaveValue('');
    expect(email).toHaveValue('');
    expect(message).toHaveValue('');
    expect(captcha.reset).toHaveBeenCalledTimes(1);
    expect(sendButton()).toBeDisabled();
  });

  it.each([
    ['a 400', () => Promise.resolve(response(400))],
    ['a 500', () => Promise.resolve(response(500))],
    ['a 503', () => Promise.resolve(response(503))],
    ['a 304', () => Promise.resolve(response(304))],
    ['a network failure', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('on %s shows the failure message and keeps every typed character', async (_label, answer) => {
    fetchMock.mockImplementation(answer);
    const user = setup();
    const typed = { fullName: "Zoë O'Brien", email: 'zoe@example.ie', message: '  Dear Alex,\n\nLet’s build something — 😀 ' };
    await fill(user, typed);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());

    expect(await screen.findByRole('alert')).toHaveTextContent(FAILED);
    expect(screen.getByRole('status')).toBeEmptyDOMElement();
    const { fullName, email, message } = fields();
    expect(fullName).toHaveValue(typed.fullName);
    expect(email).toHaveValue(typed.email);
    expect(message).toHaveValue(typed.message);
    // The used token is gone: the visitor solves the captcha again to retry.
    expect(captcha.reset).toHaveBeenCalledTimes(1);
    expect(sendButton()).toBeDisabled();
    expect(sendButton()).toHaveTextContent('Send');
  });

  it('resets the captcha on every submit', async () => {
    fetchMock.mockResolvedValueOnce(response(500)).mockResolvedValueOnce(response(200));
    const user = setup();
    await fill(user, { ...good, fullName: 'Alex' });
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton()); // invalid name
    expect(captcha.reset).toHaveBeenCalledTimes(1);

    await user.type(fields().fullName, ' Example');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton()); // server failure
    await screen.findByText(FAILED);
    expect(captcha.reset).toHaveBeenCalledTimes(2);

    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton()); // success
    await screen.findByText(SENT);
    expect(captcha.reset).toHaveBeenCalledTimes(3);
    // Each attempt used its own fresh token.
    const tokens = fetchMock.mock.calls.map(
      ([, init]) => (JSON.parse(String(init?.body)) as Record<string, string>)['g-recaptcha-response'],
    );
    expect(tokens).toEqual(['token-2', 'token-3']);
  });
});

describe('typing clears the messages', () => {
  it('clears the failure message', async () => {
    fetchMock.mockResolvedValue(response(500));
    const user = setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());
    await screen.findByText(FAILED);

    await user.type(fields().message, '!');
    expect(screen.queryByText(FAILED)).not.toBeInTheDocument();
    expect(fields().message).toHaveValue(`${good.message}!`);
  });

  it('clears the success message', async () => {
    fetchMock.mockResolvedValue(response(200));
    const user = setup();
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());
    await screen.findByText(SENT);

    await user.type(fields().fullName, 'A');
    expect(screen.queryByText(SENT)).not.toBeInTheDocument();
  });

  it('clears a validation message and its marking', async () => {
    const user = setup();
    await fill(user, { ...good, email: 'nope' });
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid email address.');

    await user.type(fields().email, '@example.com');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(fields().email).not.toHaveAttribute('aria-invalid');
  });
});

describe('solving the captcha', () => {
  it('clears the captcha message, but not the message of a field still to fix', async () => {
    const user = setup();
    await fill(user, good);
    fireEvent.submit(fields().message.closest('form')!);
    expect(screen.getByRole('alert')).toHaveTextContent('Please check the reCAPTCHA box.');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    await user.clear(fields().fullName);
    await user.type(fields().fullName, 'Ada');
    await user.click(sendButton());
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid full name.');
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please enter a valid full name.');
    expect(fields().fullName).toHaveAttribute('aria-invalid', 'true');
  });
});

describe('while the captcha loads', () => {
  it('says the captcha is loading until its script is there, then shows only the widget', async () => {
    setup();
    expect(screen.getByText(CAPTCHA_LOADING)).toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
    act(() => captcha.scriptLoaded?.({}));
    expect(screen.queryByText(CAPTCHA_LOADING)).not.toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('says why the form cannot be sent when the captcha script fails to load', () => {
    setup();
    act(() => captcha.scriptLoaded?.({ errored: true }));
    expect(screen.getByRole('alert')).toHaveTextContent(CAPTCHA_FAILED);
    expect(screen.queryByText(CAPTCHA_LOADING)).not.toBeInTheDocument();
    expect(sendButton()).toBeDisabled();
  });
});

describe('timeouts and the prerender', () => {
  it('ends a hung request as a failure after the timeout', async () => {
    fetchMock.mockImplementation(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const body = { fullName: 'A B', email: 'a@b.co', message: 'hello', 'g-recaptcha-response': 't' };
    await expect(postContact('/api/contact', body, { timeoutMs: 20 })).resolves.toBe(false);
  });

  it('uses a 15 s timeout in the form', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let signal: AbortSignal | undefined;
    fetchMock.mockImplementation((_url, init) => {
      signal = init?.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) => {
        signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    render(<ContactForm />);
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());
    expect(sendButton()).toHaveTextContent('Sending...');

    await act(async () => {
      vi.advanceTimersByTime(14_000);
    });
    expect(signal?.aborted).toBe(false);
    await act(async () => {
      vi.advanceTimersByTime(1_500);
    });
    expect(signal?.aborted).toBe(true);
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent(FAILED));
    expect(fields().message).toHaveValue(good.message);
  });

  it('prerenders the form without the captcha widget, with Send disabled and the reason shown', () => {
    const html = renderToString(
      inEnglish(
        <HydrationProvider>
          <ContactForm />
        </HydrationProvider>,
      ),
    );
    const page = document.createElement('div');
    page.innerHTML = html;
    expect(page.querySelector('[data-testid="recaptcha"]')).toBeNull();
    expect(page.querySelector('.contact-form__captcha')).toHaveTextContent(CAPTCHA_LOADING);
    expect(page.querySelector('button[type="submit"]')).toBeDisabled();
    expect(page.textContent).toContain('Full name');
    // For visitors without JavaScript: a <noscript> line says why the form cannot be sent.
    expect(html).toMatch(new RegExp(`<noscript>.*${CAPTCHA_NEEDS_SCRIPTS}.*</noscript>`));
  });

  it('keeps what was typed before hydration, through hydration and the renders after it', async () => {
    const container = document.createElement('div');
    container.innerHTML = renderToString(
      inEnglish(
        <HydrationProvider>
          <ContactForm />
        </HydrationProvider>,
      ),
    );
    document.body.append(container);
    const typedBefore = { fullName: 'Ada Lovelace', email: 'ada@example.org', message: 'Typed while the scripts were on their way.' };
    const field = (name: keyof typeof typedBefore) => container.querySelector<HTMLInputElement | HTMLTextAreaElement>(`[name="${name}"]`)!;
    for (const [name, value] of Object.entries(typedBefore)) field(name as keyof typeof typedBefore).value = value;
    field('message').focus();
    const consoleError = vi.spyOn(console, 'error');

    const root = await act(async () =>
      hydrateRoot(
        container,
        inEnglish(
          <HydrationProvider>
            <ContactForm />
          </HydrationProvider>,
        ),
      ),
    );
    // Hydrated, and re-rendered since: the captcha widget is mounted (a client-only render).
    expect(within(container).getByTestId('recaptcha')).toBeInTheDocument();
    for (const [name, value] of Object.entries(typedBefore)) expect(field(name as keyof typeof typedBefore)).toHaveValue(value);
    expect(document.activeElement).toBe(field('message'));
    expect(consoleError, 'no hydration mismatch').not.toHaveBeenCalled();

    // And the typed text is what gets sent.
    fetchMock.mockResolvedValue(response(200));
    await act(async () => within(container).getByRole('button', { name: 'Solve captcha' }).click());
    await act(async () => within(container).getByRole('button', { name: 'Send' }).click());
    const body = JSON.parse(String(fetchMock.mock.calls[0]?.[1]?.body)) as Record<string, string>;
    expect(body).toMatchObject(typedBefore);
    consoleError.mockRestore();
    act(() => root.unmount());
    container.remove();
  });

  it('does not complain when it unmounts while sending', async () => {
    const consoleError = vi.spyOn(console, 'error');
    const held = deferred<Response>();
    fetchMock.mockReturnValue(held.promise);
    const user = userEvent.setup();
    const { unmount } = render(<ContactForm />);
    await fill(user, good);
    await user.click(screen.getByRole('button', { name: 'Solve captcha' }));
    await user.click(sendButton());
    unmount();
    await act(async () => held.resolve(response(200)));
    expect(consoleError).not.toHaveBeenCalled();
    consoleError.mockRestore();
  });
});
