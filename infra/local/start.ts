/**
 * `npm start` (after `npm run build`): the production build served the way CloudFront, S3 and API
 * Gateway serve it, with aws-ses-v2-local as the mailbox. Settings: PORT (8080), SES_PORT (8005),
 * RECAPTCHA_VERIFY_URL, RECAPTCHA_SECRET (Google's public test secret), OWNER_EMAIL, SENDER_EMAIL,
 * CLIENT_DIR (another build's client directory; its parent must hold postbuild.json).
 */
import { portFromEnv, stopOnSignals, textFromEnv, urlFromEnv } from './env-options';
import { startLocalStack } from './stack';

async function main() {
  const recaptchaVerifyUrl = urlFromEnv('RECAPTCHA_VERIFY_URL');
  const recaptchaSecret = textFromEnv('RECAPTCHA_SECRET');
  const ownerEmail = textFromEnv('OWNER_EMAIL');
  const senderEmail = textFromEnv('SENDER_EMAIL');
  const clientDir = textFromEnv('CLIENT_DIR');
  const stack = await startLocalStack({
    port: portFromEnv('PORT', 8080),
    sesPort: portFromEnv('SES_PORT', 8005),
    ...(recaptchaVerifyUrl ? { recaptchaVerifyUrl } : {}),
    ...(recaptchaSecret ? { recaptchaSecret } : {}),
    ...(ownerEmail ? { ownerEmail } : {}),
    ...(senderEmail ? { senderEmail } : {}),
    ...(clientDir ? { clientDir } : {}),
  });
  stopOnSignals(stack.stop);
  console.log(`
  Site:     ${stack.url}   (API on the same origin: POST /api/contact, POST /api/events)
  Mailbox:  ${stack.sesUrl}   (mails sent from the contact page; JSON at ${stack.sesUrl}/store)
  Captcha:  ${recaptchaVerifyUrl ?? 'Google siteverify'} with ${recaptchaSecret ? 'RECAPTCHA_SECRET' : "Google's public test secret"}

  Press Ctrl-C to stop.
`);
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
});
