/**
 * `npm start` (after `npm run build`): the production build served the way CloudFront, S3 and API
 * Gateway serve it, with aws-ses-v2-local as the mailbox and dynalite as the message archive. Settings:
 * PORT (8080), SES_PORT (8005), ARCHIVE_PORT (8006), ARCHIVE_DIR (.local/archive),
 * AWS_ENDPOINT_URL_DYNAMODB / AWS_ENDPOINT_URL_SES (an outside server instead), RECAPTCHA_VERIFY_URL, RECAPTCHA_SECRET (Google's public test secret), OWNER_EMAIL, SENDER_EMAIL,
 * CLIENT_DIR (another build's client directory; its parent must hold postbuild.json).
 */
import { nodeVersionNote, portFromEnv, stackOptionsFromEnv, stopOnSignals } from './env-options';
import { startLocalStack } from './stack';

async function main() {
  const nodeNote = nodeVersionNote(); // before any AWS SDK client exists
  const options = stackOptionsFromEnv();
  const stack = await startLocalStack({
    ...options,
    port: portFromEnv('PORT', 8080),
    clientDir: process.env.CLIENT_DIR?.trim() || undefined,
  });
  stopOnSignals(stack.stop);
  const { archive } = stack;
  const archiveAt = archive?.dataDir ? `data in ${archive.dataDir}` : 'outside server';
  console.log(`
  Site:     ${stack.url}   (API on the same origin: POST /api/contact, POST /api/events)
  Mailbox:  ${stack.sesUrl}   (mails sent from the contact page; JSON at ${stack.sesUrl}/store)
  Archive:  ${archive?.url}   (table ${archive?.table}, ${archiveAt}; list it with npm run messages -- --local)
  Captcha:  ${options.recaptchaVerifyUrl ?? 'Google siteverify'} with ${options.recaptchaSecret ? 'RECAPTCHA_SECRET' : "Google's public test secret"}
${nodeNote ? `\n  ${nodeNote}\n` : ''}
  Press Ctrl-C to stop.
`);
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${(error as Error).message ?? String(error)}`);
  process.exit(1);
});
