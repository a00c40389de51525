import { type ComponentType, type FormEvent, type Ref, useEffect, useId, useRef, useState } from 'react';
import type ReCAPTCHA from 'react-google-recaptcha';
import type { ReCAPTCHAProps } from 'react-google-recaptcha';
import { CONTACT_LIMITS, type ContactField, checkContact, toRequestBody } from '../../../../contract/contact-rules';
import type { UiMessages } from '../../../content/types';
import { localeCaptcha } from '../../../content/locales';
import { useLocale, useUi } from '../../i18n/locale-context';
import { env } from '../../config/env';
import { onDemand } from '../../components/on-demand';
import { useHydrated } from '../../components/use-hydrated';
import { useResolvedTheme } from '../theme/theme-store';
import { newIdempotencyKey, postContact } from './contact-api';
import './ContactForm.css';

// The widget (react-google-recaptcha and its helpers) mounts only after hydration, in a box the
// stylesheet reserves: it is fetched on demand, starting while the page hydrates.
type CaptchaWidgetProps = Omit<ReCAPTCHAProps, 'asyncScriptOnLoad'> & {
  ref?: Ref<ReCAPTCHA>;
  /** react-async-script calls this once Google's script has loaded, or failed to (`errored`). */
  asyncScriptOnLoad?: (script: { errored?: boolean }) => void;
};
const captchaWidget = onDemand<CaptchaWidgetProps>('captcha', () =>
  import('react-google-recaptcha').then(
    // The package's types declare asyncScriptOnLoad without its argument; at run time
    // react-async-script passes its script state, whose `errored` tells a failed load apart.
    (module) => module.default as unknown as ComponentType<CaptchaWidgetProps>,
  ),
);
if (typeof window !== 'undefined') captchaWidget.preload();

type CaptchaScript = 'loading' | 'ready' | 'failed';

type Status =
  | { kind: 'idle' }
  | { kind: 'invalid'; field: ContactField }
  | { kind: 'sending' }
  | { kind: 'sent' }
  | { kind: 'failed' };

/** The message of each failed check, in the page's language (the rules are contract/contact-rules.ts). */
export function fieldMessage(field: ContactField, messages: UiMessages['contact']): string {
  return {
    fullName: messages.invalidName,
    email: messages.invalidEmail,
    message: messages.invalidMessage,
    captcha: messages.missingCaptcha,
  }[field];
}


/**
 * The contact form. Send stays disabled until the captcha is solved; the rules run in their fixed
 * order and the first failure is shown; the captcha is reset on every submit; success clears
 * everything, failure keeps every typed character.
 *
 * The text fields are uncontrolled: the browser owns what is typed and the form reads it on
 * submit. A visitor on a slow phone can type before the scripts arrive, and hydration (and every
 * render after it) leaves that text alone; controlled fields would be reset to React's empty state.
 */
export function ContactForm() {
  const [captchaScript, setCaptchaScript] = useState<CaptchaScript>('loading');
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const isClient = useHydrated();
  const text = useUi().contact;
  const locale = useLocale();
  const id = useId();
  const recaptchaRef = useRef<ReCAPTCHA>(null);
  const theme = useResolvedTheme();
  // A ref, not state: it blocks a second submit before React has re-rendered the disabled button.
  const sendingRef = useRef(false);
  // One Idempotency-Key per message: kept when sending fails (pressing Send again is the same
  // message, stored and mailed once), dropped after a success or any edit (a new message).
  const idempotencyKeyRef = useRef<string | null>(null);
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

  function handleTyping() {
    // Any typing clears the success and error messages, and makes it a new message.
    if (!sendingRef.current) {
      setStatus({ kind: 'idle' });
      idempotencyKeyRef.current = null;
    }
  }

  function typedValues() {
    return {
      fullName: fullNameRef.current?.value ?? '',
      email: emailRef.current?.value ?? '',
      message: messageRef.current?.value ?? '',
    };
  }

  function clearFields() {
    for (const field of [fullNameRef, emailRef, messageRef]) if (field.current) field.current.value = '';
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
    // A reCAPTCHA token is single-use: reset the widget on every submit.
    recaptchaRef.current?.reset();
    setCaptchaToken(null);

    const result = checkContact({ ...typedValues(), captchaToken: token });
    if (!result.ok) {
      setStatus({ kind: 'invalid', field: result.field });
      const target = { fullName: fullNameRef, email: emailRef, message: messageRef, captcha: captchaRef }[result.field];
      target.current?.focus();
      return;
    }

    sendingRef.current = true;
    setStatus({ kind: 'sending' });
    idempotencyKeyRef.current ??= newIdempotencyKey();
    const sent = await postContact(env.contactEndpoint, toRequestBody(result.value), {
      idempotencyKey: idempotencyKeyRef.current,
      language: document.documentElement.lang,
    });
    sendingRef.current = false;
    if (sent) idempotencyKeyRef.current = null;
    if (!mountedRef.current) return;
    if (sent) {
      clearFields();
      setStatus({ kind: 'sent' });
    } else {
      setStatus({ kind: 'failed' });
    }
  }

  function fieldError(field: ContactField) {
    if (status.kind !== 'invalid' || status.field !== field) return null;
    return (
      <p id={errorId(field)} className="contact-form__error" role="alert">
        {fieldMessage(field, text)}
      </p>
    );
  }

  function describedBy(field: ContactField): string | undefined {
    return invalidField === field ? errorId(field) : undefined;
  }

  return (
    <form className="contact-form" method="post" noValidate aria-busy={sending} onSubmit={handleSubmit}>
      <div className="contact-form__field">
        <label htmlFor={`${id}-fullName`}>{text.fullName}</label>
        <input
          ref={fullNameRef}
          id={`${id}-fullName`}
          name="fullName"
          type="text"
          autoComplete="name"
          dir="auto"
          required
          maxLength={CONTACT_LIMITS.nameMax}
          readOnly={sending}
          aria-invalid={invalidField === 'fullName' || undefined}
          aria-describedby={describedBy('fullName')}
          onChange={handleTyping}
        />
        {fieldError('fullName')}
      </div>

      <div className="contact-form__field">
        <label htmlFor={`${id}-email`}>{text.email}</label>
        <input
          ref={emailRef}
          id={`${id}-email`}
          name="email"
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          dir="ltr"
          required
          maxLength={CONTACT_LIMITS.emailMax}
          readOnly={sending}
          aria-invalid={invalidField === 'email' || undefined}
          aria-describedby={describedBy('email')}
          onChange={handleTyping}
        />
        {fieldError('email')}
      </div>

      <div className="contact-form__field">
        <label htmlFor={`${id}-message`}>{text.message}</label>
        <textarea
          ref={messageRef}
          id={`${id}-message`}
          name="message"
          rows={6}
          dir="auto"
          required
          maxLength={CONTACT_LIMITS.messageMax}
          readOnly={sending}
          aria-invalid={invalidField === 'message' || undefined}
          aria-describedby={describedBy('message')}
          onChange={handleTyping}
        />
        {fieldError('message')}
      </div>

      <div className="contact-form__captcha" ref={captchaRef} tabIndex={-1} aria-describedby={describedBy('captcha')}>
        {captchaScript !== 'ready' && (
          <p className="contact-form__captcha-note" role={captchaScript === 'failed' ? 'alert' : undefined}>
            {captchaScript === 'failed' ? text.captchaFailed : text.captchaLoading}
          </p>
        )}
        {isClient && (
          <captchaWidget.Render
            ref={recaptchaRef}
            size="compact"
            theme={theme}
            // The widget in the page's language, not the browser's: reCAPTCHA's `hl`, "forces the widget to
            // render in a specific language" (reCAPTCHA v2 docs, https://developers.google.com/recaptcha/docs/display).
            // Google's code for the language is its line's `captcha` in locales.ts (checked against Google's list at build).
            // react-google-recaptcha hands it to grecaptcha.render; the widget's frame stays on www.google.com.
            hl={localeCaptcha(locale)}
            sitekey={env.recaptchaSiteKey}
            onChange={handleCaptchaChange}
            onExpired={() => setCaptchaToken(null)}
            onErrored={() => setCaptchaToken(null)}
            asyncScriptOnLoad={(script) => setCaptchaScript(script.errored ? 'failed' : 'ready')}
          />
        )}
      </div>
      <noscript>
        <p className="contact-form__captcha-note contact-form__noscript">{text.captchaNeedsScripts}</p>
      </noscript>
      {fieldError('captcha')}

      <div className="contact-form__footer">
        <button type="submit" className="contact-form__submit" disabled={!captchaToken || sending}>
          {sending ? text.sending : text.send}
        </button>
        <p className="contact-form__status" role="status">
          {status.kind === 'sent' ? text.sent : ''}
        </p>
      </div>
      {status.kind === 'failed' && (
        <p className="contact-form__error contact-form__error--send" role="alert">
          {text.sendFailed}
        </p>
      )}
    </form>
  );
}
