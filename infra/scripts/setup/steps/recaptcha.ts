/** npm run setup, step 8: reCAPTCHA. */
import { PutParameterCommand } from '@aws-sdk/client-ssm';
import { RECAPTCHA_TEST_SITE_KEY } from '../../../config/portfolio-config';
import { RECAPTCHA_SITE_KEY_PATTERN } from '../../../../contract/settings';
import { checkRecaptchaParameter } from '../../doctor/checks';
import { SetupError, type SetupContext, type StepResult } from '../context';
import { type Step, call, result, fromNow, waiting, applyPlan } from './step';

/** Where the owner registers the site for a v2 key pair (docs/deploy.md, Prerequisites). */
export const RECAPTCHA_ADMIN_URL = 'https://www.google.com/recaptcha/admin';

async function readSecret(ctx: SetupContext): Promise<string> {
  let secret: string | undefined;
  // Google's test key needs nothing here: the stack stores its public test secret in a parameter of its
  // own (the doctor's check passes), so the live parameter is never overwritten with it.
  if (ctx.options.recaptchaSecretStdin) secret = (await ctx.deps.readStdin()).replace(/\r?\n$/, '');
  else if (ctx.options.env.RECAPTCHA_SECRET !== undefined) secret = ctx.options.env.RECAPTCHA_SECRET;
  else if (ctx.options.interactive) {
    secret = await ctx.deps.prompter.secret({
      id: 'recaptcha-secret',
      message: 'The reCAPTCHA secret key (hidden; stored only in SSM)',
      validate: (v) => (v.trim() === '' ? 'the secret is empty' : undefined),
    });
  } else throw new SetupError('reCAPTCHA secret: no answer without a terminal; set RECAPTCHA_SECRET or pass --recaptcha-secret-stdin');
  if (secret.trim() === '' || secret !== secret.trim()) {
    throw new SetupError(
      "reCAPTCHA secret: empty or with spaces around it; copy the key's legacy secret key again (reCAPTCHA admin console, or the key's details in the Google Cloud console)",
    );
  }
  return secret;
}

export const recaptchaStep: Step = {
  id: 'recaptcha',
  async run(ctx) {
    const results: StepResult[] = [];
    let keyChanged = false;
    if (ctx.config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY && !ctx.options.trial) {
      const domains = ctx.config.domain
        ? ctx.config.domain.domainName
        : ctx.config.siteUrl
          ? new URL(ctx.config.siteUrl).host
          : 'your CloudFront domain (the first deploy prints it; add it then)';
      ctx.print(`reCAPTCHA: register the site at ${RECAPTCHA_ADMIN_URL} (v2 "I'm not a robot"), domains: ${domains}`);
      const key = await ctx.ask('recaptcha-site-key', {
        message: 'The reCAPTCHA site key',
        validate: (v) =>
          v === RECAPTCHA_TEST_SITE_KEY
            ? "Google's public test key: the captcha would accept everyone; use your own key, or npm run setup -- --trial"
            : RECAPTCHA_SITE_KEY_PATTERN.test(v)
              ? undefined
              : `"${v}" is not a reCAPTCHA site key (20-100 letters, digits, - or _)`,
      });
      await ctx.writeConfig({ recaptchaSiteKey: key });
      keyChanged = true;
      results.push(result('reCAPTCHA site key', 'changed', 'your own key (cdk.json)'));
    } else {
      results.push(
        result(
          'reCAPTCHA site key',
          'ready',
          ctx.config.recaptchaSiteKey === RECAPTCHA_TEST_SITE_KEY ? "Google's test key (trial)" : 'your own key',
        ),
      );
    }
    const name = ctx.config.recaptchaSecretParameter;
    const check = await checkRecaptchaParameter(ctx.clients.ssm, ctx.config);
    if (check.status === 'pass' && !keyChanged) {
      results.push(result('reCAPTCHA secret', 'ready', check.detail));
      return results;
    }
    if (check.status !== 'pass' && !/^no SSM parameter/.test(check.detail)) {
      // A String parameter: deleting the owner's parameter is theirs to do.
      throw new SetupError(`${check.detail}: ${check.fix ?? ''}`);
    }
    const overwrite = check.status === 'pass';
    const secret = await readSecret(ctx);
    const applied = await applyPlan(ctx, 'reCAPTCHA secret', {
      change: `${overwrite ? 'overwrite' : 'create'} the SecureString ${name} in ${ctx.config.region} with the site key's secret`,
      cost: 'nothing (standard parameter, AWS-managed key)',
      consentId: overwrite ? 'overwrite-recaptcha-secret' : 'put-recaptcha-secret',
      apply: () =>
        call('ssm:PutParameter', () =>
          ctx.clients.ssm.send(new PutParameterCommand({ Name: name, Type: 'SecureString', Value: secret, Overwrite: overwrite })),
        ),
    });
    if (!applied) {
      results.push(waiting('reCAPTCHA secret', `${name} not written (your answer)`, 'you: run npm run setup again', fromNow(ctx)));
      return results;
    }
    const again = await checkRecaptchaParameter(ctx.clients.ssm, ctx.config);
    if (again.status !== 'pass') throw new SetupError(`reCAPTCHA secret: still ${again.detail}`);
    results.push(result('reCAPTCHA secret', 'changed', `${name} stored (SecureString; the value is not shown)`));
    return results;
  },
};
