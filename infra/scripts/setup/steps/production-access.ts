/** npm run setup, step 7: production access (opt-in). */
import { PutAccountDetailsCommand } from '@aws-sdk/client-sesv2';
import { SetupError } from '../context';
import { type Step, call, result, fromNow, waiting, applyPlan } from './step';
import { sesAccount } from './ses-identities';

/**
 * What AWS asks of a production access request, answered for this site. The SESv2 model marks
 * PutAccountDetails' UseCaseDescription "optional and deprecated", so the reviewer may never read it
 * there: it is still sent, the owner's address is added as a contact for the review
 * (AdditionalContactEmailAddresses), and setup prints the text to give AWS when the review asks.
 */
export function useCaseText(siteUrl: string, owner: string): string {
  return [
    `How often and what: the contact form of the personal portfolio ${siteUrl} mails its owner (${owner}) one message per visitor submission, a few a month; no marketing, no lists.`,
    "Recipients: only the site owner's own address; visitors are never mailed, so no list is kept or bought.",
    "Bounces and complaints: SES delivery, bounce and complaint events go to the site's archive and alarms; a failed mail is retried from the archive, never resent to a bouncing address.",
    'Unsubscribe: not applicable, the only recipient is the owner.',
  ].join('\n');
}

/**
 * What production access changes, shown before the question. The sandbox, per region: mail only to
 * verified addresses, at most 200 messages in 24 hours and 1 a second; production access lifts the
 * recipient limit; "The AWS Support team provides an initial response to your request within 24 hours",
 * and the details cannot be edited until the review is complete. Source: SES Developer Guide, "Request
 * production access (Moving out of the Amazon SES sandbox)":
 * https://docs.aws.amazon.com/ses/latest/dg/request-production-access.html
 */
export const PRODUCTION_ACCESS_NOTE = [
  'SES production access (optional): in the sandbox SES mails only verified addresses (at most 200 a day, 1 a second), which',
  'is enough here: the site mails only you. Production access lets SES mail any address. AWS reviews the request (a',
  'case in the Support Center; a first answer within about a day) and it cannot be edited while the review runs.',
].join('\n  ');

/** The review's state has no date: ReviewDetails holds only Status and CaseId (SES API Reference v2, ReviewDetails). */
const REVIEW_NO_DATE = 'SES keeps no date for the request (its review has a status and a case id only); the Support Center case shows it';

export const productionAccessStep: Step = {
  id: 'production-access',
  async run(ctx) {
    const account = await sesAccount(ctx);
    if (account.SendingEnabled === false) {
      throw new SetupError(`SES sending is paused for this account in ${ctx.config.region}: SES console → Account dashboard says why`);
    }
    if (account.ProductionAccessEnabled === true) return [result('SES sending', 'ready', 'production access')];
    const review = account.Details?.ReviewDetails;
    const caseId = review?.CaseId ? ` (case ${review.CaseId})` : '';
    // Review statuses: SES API Reference, ReviewDetails: https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_ReviewDetails.html
    if (review?.Status === 'PENDING') {
      return [
        waiting(
          'SES sending',
          `sandbox; production access review PENDING${caseId}, not asked again`,
          'AWS: the review (a first answer within about a day)',
          {
            sinceUnknown: REVIEW_NO_DATE,
          },
        ),
      ];
    }
    if (review?.Status === 'DENIED') {
      return [
        result(
          'SES sending',
          'ready',
          `sandbox; production access DENIED${caseId}: the sandbox still mails the verified owner (answer the case in the Support Center)`,
        ),
      ];
    }
    // The owner's answer: the flag, else cdk.json's sesProductionAccess; asked once in a terminal, and a "no" is kept there.
    let wanted = ctx.options.requestProductionAccess || ctx.config.sesProductionAccess === true;
    let consented = false;
    if (!wanted && ctx.config.sesProductionAccess === undefined && ctx.options.interactive) {
      ctx.print(`  ${PRODUCTION_ACCESS_NOTE}`);
      // Opt-in: Enter alone keeps the sandbox.
      wanted = await ctx.consent(
        'request-production-access',
        `Ask AWS for SES production access in ${ctx.config.region} (cost: nothing; SES bills per mail sent)`,
        { initial: false },
      );
      await ctx.writeConfig({ sesProductionAccess: wanted });
      consented = wanted;
    }
    if (!wanted) {
      const hint = 'optional: npm run setup -- --request-production-access';
      const why = ctx.config.sesProductionAccess === false ? `your answer in cdk.json, "sesProductionAccess": false; ${hint}` : hint;
      return [result('SES sending', 'ready', `sandbox: enough for this site, which only mails the verified owner (${why})`)];
    }
    const websiteUrl =
      ctx.options.answers['website-url'] ??
      ctx.options.env.SETUP_WEBSITE_URL ??
      (ctx.config.siteUrl || undefined) ??
      (await ctx.ask('website-url', { message: "The site's https:// address (AWS reviews it)" }));
    if (!/^https:\/\/[^\s/]+/.test(websiteUrl))
      throw new SetupError(`WebsiteURL ${websiteUrl}: must start with https:// (pass --website-url https://…)`);
    const request = () =>
      call('ses:PutAccountDetails', () =>
        ctx.clients.sesv2.send(
          new PutAccountDetailsCommand({
            // Fields: SES API Reference v2, PutAccountDetails (MailType and WebsiteURL required):
            // https://docs.aws.amazon.com/ses/latest/APIReference-V2/API_PutAccountDetails.html
            MailType: 'TRANSACTIONAL',
            WebsiteURL: websiteUrl,
            ContactLanguage: 'EN',
            // Deprecated in the SESv2 model (still accepted); see useCaseText.
            UseCaseDescription: useCaseText(websiteUrl, ctx.config.ownerEmail),
            AdditionalContactEmailAddresses: [ctx.config.ownerEmail],
            ProductionAccessEnabled: true,
          }),
        ),
      );
    const change = `ask AWS for SES production access in ${ctx.config.region} (TRANSACTIONAL mail, ${websiteUrl})`;
    let applied = consented;
    if (consented) {
      ctx.print(`SES sending: ${change}`);
      await request();
    } else {
      applied = await applyPlan(ctx, 'SES sending', {
        change,
        cost: 'nothing; SES bills per mail sent',
        consentId: 'production-access',
        apply: request,
      });
    }
    if (!applied) return [result('SES sending', 'ready', 'sandbox (production access not requested: your answer)')];
    ctx.print(
      `SES sending: AWS may not read the use case sent with the request; if the review asks (mail to ${ctx.config.ownerEmail}, ` +
        `or the case in the Support Center), answer with:\n${useCaseText(websiteUrl, ctx.config.ownerEmail).replace(/^/gm, '    ')}`,
    );
    return [
      waiting(
        'SES sending',
        'production access requested',
        'AWS: the review (its answer comes by mail and in the Support Center)',
        fromNow(ctx),
      ),
    ];
  },
};
