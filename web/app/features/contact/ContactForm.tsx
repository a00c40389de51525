import { type ChangeEvent, type FormEvent, type Ref, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import type ReCAPTCHA from 'react-google-recaptcha';
import type { ReCAPTCHAProps } from 'react-google-recaptcha';
import {
  CONTACT_LIMITS,
  CONTACT_MESSAGES,
  type ContactField,
  toRequestBody,
  validateContact,
} from '../../../../contract/contact-rules';
import { env } from '../../config/env';
import { onDemand } from '../../components/on-demand';
import { useResolvedTheme } from '../theme/theme-store';
import { postContact } from './contact-api';
import './ContactForm.css';

// The widget (react-google-recaptcha and its helpers) mounts only after hydration, in a box the
// stylesheet reserves: it is fetched on demand, starting while the page hydrates.
const captchaWidget = onDemand<ReCAPTCHAProps & { ref?: Ref<ReCAPTCHA> }>('captcha', () =>
  import('react-google-recaptcha').then((module) => module.default),
);
if (typeof window !== 'undefined') captchaWidget.preload();

type TextField = Exclude<ContactField, 'captcha'>;
type Fields = Record<TextField, string>;

type Status =
  | { kind: 'idle' }
  | { kind: 'invalid'; field: ContactField; error: string }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'failed' };

const EMPTY_FIELDS: Fields = { fullName: '', email: '', message: '' };

const subscribeToNothing = () => () => {};
/** False in the prerender and while hydrating, true after: the captcha widget only exists in a browser. */
function useIsClient(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}

/**
 * The contact form (spec §4, §5, §7, §8). Send stays disabled until the captcha is solved; the
 * rules run in the spec's order and the first failure is shown; the captcha is reset on every
 * submit; success clears everything, failure keeps every typed character.
 */
export function ContactForm() {
  const [fields, setFields] = useState<Fields>(EMPTY_FIELDS);
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const isClient = useIsClient();
  const id = useId();
  const recaptchaRef = useRef<ReCAPTCHA>(null);
  const theme = useResolvedTheme();
  // A ref, not state: it blocks a second submit before React has re-rendered the disabled button.
  const sendingRef = useRef(false);
  const mountedRef = useRef(true);
  const fullNameRef = useRef<HTMLInputElement>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const messageRef = useRef<HTMLTextAreaElement>(null);
  const captchaRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    mountedRef.current = true;
    return () => {
      mountedRef.current = false;
    };
  }, []);

  const sending = status.kind === 'sending';
  const invalidField = status.kind === 'invalid' ? status.field : null;
  const errorId = (field: ContactField) => `${id}-${field}-error`;

  function handleChange(field: TextField) {
    return (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const { value } = event.target;
      setFields((current) => ({ ...current, [field]: value }));
      // Any typing clears the success and error messages (spec §4).
      if (!sendingRef.current) setStatus({ kind: 'idle' });
    };
  }

  function handleCaptchaChange(token: string | null) {
    // Called with null when the token expires: Send is disabled again.
    setCaptchaToken(token && token.length > 0 ? token : null);
    // Solving the captcha answers only the captcha's own message; other messages wait for typing.
    if (token && !sendingRef.current) {
      setStatus((current) => (current.kind === 'invalid' && current.field === 'captcha' ? { kind: 'idle' } : current));
    }
  }

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (sendingRef.current) return;

    const token = captchaToken;
    // A reCAPTCHA token is single-use: reset the widget on every submit (spec §4).
    recaptchaRef.current?.reset();
    setCaptchaToken(null);

    const result = validateContact({ ...fields, captchaToken: token });
    if (!result.ok) {
      setStatus({ kind: 'invalid', field: result.field, error: result.error });
      const target = { fullName: fullNameRef, email: emailRef, message: messageRef, captcha: captchaRef }[result.field];
      target.current?.focus();
      return;
    }

    sendingRef.current = true;
    setStatus({ kind: 'sending' });
    const sent = await postContact(env.contactEndpoint, toRequestBody(result.value));
    sendingRef.current = false;
    if (!mountedRef.current) return;
    if (sent) {
      setFields(EMPTY_FIELDS);
      setStatus({ kind: 'sent' });
    } else {
      setStatus({ kind: 'failed' });
    }
  }

  function fieldError(field: ContactField) {
    if (status.kind !== 'invalid' || status.field !== field) return null;
    return (
      <p id={errorId(field)} className="contact-form__error" role="alert">
        {status.error}
      </p>
    );
  }

  function describedBy(field: ContactField): string | undefined {
    return invalidField === field ? errorId(field) : undefined;
  }

  return (
    <form className="contact-form" method="post" noValidate aria-busy={sending} onSubmit={handleSubmit}>
      <div className="contact-form__field">
        <label htmlFor={`${id}-fullName`}>Full name</label>
        <input
          ref={fullNameRef}
          id={`${id}-fullName`}
          name="fullName"
          type="text"
          autoComplete="name"
          required
          maxLength={CONTACT_LIMITS.nameMax}
          value={fields.fullName}
          readOnly={sending}
          aria-invalid={invalidField === 'fullName' || undefined}
          aria-describedby={describedBy('fullName')}
          onChange={handleChange('fullName')}
        />
        {fieldError('fullName')}
      </div>

      <div className="contact-form__field">
        <label htmlFor={`${id}-email`}>Email</label>
        <input
          ref={emailRef}
          id={`${id}-email`}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          required
          maxLength={CONTACT_LIMITS.emailMax}
          value={fields.email}
          readOnly={sending}
          aria-invalid={invalidField === 'email' || undefined}
          aria-describedby={describedBy('email')}
          onChange={handleChange('email')}
        />
        {fieldError('email')}
      </div>

      <div className="contact-form__field">
        <label htmlFor={`${id}-message`}>Message</label>
        <textarea
          ref={messageRef}
          id={`${id}-message`}
          name="message"
          rows={6}
          required
          maxLength={CONTACT_LIMITS.messageMax}
          value={fields.message}
          readOnly={sending}
          aria-invalid={invalidField === 'message' || undefined}
          aria-describedby={describedBy('message')}
          onChange={handleChange('message')}
        />
        {fieldError('message')}
      </div>

      <div className="contact-form__captcha" ref={captchaRef} tabIndex={-1} aria-describedby={describedBy('captcha')}>
        {isClient && (
          <captchaWidget.Render
            ref={recaptchaRef}
            size="compact"
            theme={theme}
            sitekey={env.recaptchaSiteKey}
            onChange={handleCaptchaChange}
            onExpired={() => setCaptchaToken(null)}
            onErrored={() => setCaptchaToken(null)}
          />
        )}
      </div>
      {fieldError('captcha')}

      <div className="contact-form__footer">
        <button type="submit" className="contact-form__submit" disabled={!captchaToken || sending}>
          {sending ? 'Sending...' : 'Send'}
        </button>
        <p className="contact-form__status" role="status">
          {status.kind === 'sent' ? CONTACT_MESSAGES.sent : ''}
        </p>
      </div>
      {status.kind === 'failed' && (
        <p className="contact-form__error contact-form__error--send" role="alert">
          {CONTACT_MESSAGES.sendFailed}
        </p>
      )}
    </form>
  );
}
