import { type ComponentType, type ReactNode, type Ref, useId, useState } from 'react';
import type ReCAPTCHA from 'react-google-recaptcha';
import type { ReCAPTCHAProps } from 'react-google-recaptcha';
import { CONTACT_LIMITS, type ContactField } from '../../../../contract/contact-rules';
import type { UiMessages } from '../../../content/types';
import { localeCaptcha } from '../../../content/locales';
import { useLocale, useUi } from '../../i18n/locale-context';
import { env } from '../../config/env';
import { onDemand } from '../../components/on-demand';
import { useHydrated } from '../../components/use-hydrated';
import { useResolvedTheme } from '../theme/theme-store';
import { useContactForm } from './use-contact-form';
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

/** The message of each failed check, in the page's language (the rules are contract/contact-rules.ts). */
export function fieldMessage(field: ContactField, messages: UiMessages['contact']): string {
  return {
    fullName: messages.invalidName,
    email: messages.invalidEmail,
    message: messages.invalidMessage,
    captcha: messages.missingCaptcha,
  }[field];
}

/** A labelled field and its error. */
function Field({ htmlFor, label, error, children }: { htmlFor: string; label: string; error: ReactNode; children: ReactNode }) {
  return (
    <div className="contact-form__field">
      <label htmlFor={htmlFor}>{label}</label>
      {children}
      {error}
    </div>
  );
}

/**
 * The captcha's reserved box: a note while Google's script loads (or if it fails), then the widget, after
 * hydration. `onLost`: the token expired or the widget failed, so Send is disabled again.
 */
function CaptchaBox({
  boxRef,
  widgetRef,
  describedBy,
  onChange,
  onLost,
}: {
  boxRef: Ref<HTMLDivElement>;
  widgetRef: Ref<ReCAPTCHA>;
  describedBy: string | undefined;
  onChange: (token: string | null) => void;
  onLost: () => void;
}) {
  const [captchaScript, setCaptchaScript] = useState<CaptchaScript>('loading');
  const isClient = useHydrated();
  const text = useUi().contact;
  const locale = useLocale();
  const theme = useResolvedTheme();
  return (
    <div className="contact-form__captcha" ref={boxRef} tabIndex={-1} aria-describedby={describedBy}>
      {captchaScript !== 'ready' && (
        <p className="contact-form__captcha-note" role={captchaScript === 'failed' ? 'alert' : undefined}>
          {captchaScript === 'failed' ? text.captchaFailed : text.captchaLoading}
        </p>
      )}
      {isClient && (
        <captchaWidget.Render
          ref={widgetRef}
          size="compact"
          theme={theme}
          // The widget in the page's language, not the browser's: reCAPTCHA's `hl`, "forces the widget to
          // render in a specific language" (reCAPTCHA v2 docs, https://developers.google.com/recaptcha/docs/display).
          // Google's code for the language is its line's `captcha` in locales.ts (checked against Google's list at build).
          // react-google-recaptcha hands it to grecaptcha.render; the widget's frame stays on www.google.com.
          hl={localeCaptcha(locale)}
          sitekey={env.recaptchaSiteKey}
          onChange={onChange}
          onExpired={onLost}
          onErrored={onLost}
          asyncScriptOnLoad={(script) => setCaptchaScript(script.errored ? 'failed' : 'ready')}
        />
      )}
    </div>
  );
}

/**
 * The contact form (its state and submit in useContactForm). Send stays disabled until the captcha
 * is solved; the rules run in their fixed order and the first failure is shown.
 *
 * The text fields are uncontrolled: the browser owns what is typed and the form reads it on
 * submit. A visitor on a slow phone can type before the scripts arrive, and hydration (and every
 * render after it) leaves that text alone; controlled fields would be reset to React's empty state.
 */
export function ContactForm() {
  const { status, captchaToken, setCaptchaToken, handleTyping, handleCaptchaChange, handleSubmit, ...refs } = useContactForm();
  const { fullNameRef, emailRef, messageRef, captchaRef, recaptchaRef } = refs;
  const text = useUi().contact;
  const id = useId();
  const sending = status.kind === 'sending';
  const invalidField = status.kind === 'invalid' ? status.field : null;
  const errorId = (field: ContactField) => `${id}-${field}-error`;

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

  /** What the three text fields share: id and name, required, read-only while sending, their error, typing. */
  const shared = (field: 'fullName' | 'email' | 'message') => ({
    id: `${id}-${field}`,
    name: field,
    required: true,
    readOnly: sending,
    'aria-invalid': invalidField === field || undefined,
    'aria-describedby': describedBy(field),
    onChange: handleTyping,
  });

  return (
    <form className="contact-form" method="post" noValidate aria-busy={sending} onSubmit={handleSubmit}>
      <Field htmlFor={`${id}-fullName`} label={text.fullName} error={fieldError('fullName')}>
        <input ref={fullNameRef} {...shared('fullName')} type="text" autoComplete="name" dir="auto" maxLength={CONTACT_LIMITS.nameMax} />
      </Field>
      <Field htmlFor={`${id}-email`} label={text.email} error={fieldError('email')}>
        <input
          ref={emailRef}
          {...shared('email')}
          type="email"
          inputMode="email"
          autoComplete="email"
          spellCheck={false}
          dir="ltr"
          maxLength={CONTACT_LIMITS.emailMax}
        />
      </Field>
      <Field htmlFor={`${id}-message`} label={text.message} error={fieldError('message')}>
        <textarea ref={messageRef} {...shared('message')} rows={6} dir="auto" maxLength={CONTACT_LIMITS.messageMax} />
      </Field>

      <CaptchaBox
        boxRef={captchaRef}
        widgetRef={recaptchaRef}
        describedBy={describedBy('captcha')}
        onChange={handleCaptchaChange}
        onLost={() => setCaptchaToken(null)}
      />
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
