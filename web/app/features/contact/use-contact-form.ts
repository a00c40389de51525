import { type FormEvent, useEffect, useRef, useState } from 'react';
import type ReCAPTCHA from 'react-google-recaptcha';
import { type ContactField, checkContact, toRequestBody } from '../../../../contract/contact-rules';
import { env } from '../../config/env';
import { newIdempotencyKey, postContact } from './contact-api';

/** Where the form stands; `invalid` names the first field whose rule failed. */
type Status = { kind: 'idle' | 'sending' | 'sent' | 'failed' } | { kind: 'invalid'; field: ContactField };

/**
 * The contact form's state and what changes it: the typed fields (uncontrolled, read on submit), the
 * captcha's token, and the status a submit moves through. The captcha is reset on every submit;
 * success clears everything, failure keeps every typed character.
 */
export function useContactForm() {
  const [captchaToken, setCaptchaToken] = useState<string | null>(null);
  const [status, setStatus] = useState<Status>({ kind: 'idle' });
  const recaptchaRef = useRef<ReCAPTCHA>(null);
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

  function handleTyping() {
    // Any typing clears the success and error messages, and makes it a new message.
    if (!sendingRef.current) {
      setStatus({ kind: 'idle' });
      idempotencyKeyRef.current = null;
    }
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

    const typed = {
      fullName: fullNameRef.current?.value ?? '',
      email: emailRef.current?.value ?? '',
      message: messageRef.current?.value ?? '',
    };
    const result = checkContact({ ...typed, captchaToken: token });
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
      for (const field of [fullNameRef, emailRef, messageRef]) if (field.current) field.current.value = '';
      setStatus({ kind: 'sent' });
    } else {
      setStatus({ kind: 'failed' });
    }
  }

  return {
    status,
    captchaToken,
    setCaptchaToken,
    handleTyping,
    handleCaptchaChange,
    handleSubmit,
    recaptchaRef,
    fullNameRef,
    emailRef,
    messageRef,
    captchaRef,
  };
}
