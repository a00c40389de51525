/** npm run setup, step 2: the owner's addresses (the doctor's Configuration row). */
import { deployReadinessProblems, isEmail } from '../../../config/portfolio-config';
import { type Step, result } from './step';

const mailAnswer = (value: string) =>
  !isEmail(value)
    ? `"${value}" is not an e-mail address`
    : /(^|[.@])(example\.(com|org|net)|[a-z0-9-]+\.(example|test|invalid|localhost))$/i.test(value)
      ? `"${value}" is an example address; give your real one`
      : undefined;

export const addressesStep: Step = {
  id: 'addresses',
  async run(ctx) {
    const problems = deployReadinessProblems(ctx.config).filter((p) => /^portfolio\.(ownerEmail|senderEmail):/.test(p));
    if (problems.length === 0) return [result('Addresses', 'ready', `owner ${ctx.config.ownerEmail}, sender ${ctx.config.senderEmail}`)];
    const changes: Record<string, unknown> = {};
    if (problems.some((p) => p.startsWith('portfolio.ownerEmail'))) {
      changes.ownerEmail = await ctx.ask('owner-email', {
        message: 'Your address (receives the contact messages and the alarms)',
        validate: mailAnswer,
      });
    }
    if (problems.some((p) => p.startsWith('portfolio.senderEmail'))) {
      changes.senderEmail = await ctx.ask('sender-email', {
        message: 'The From address of the contact mails (an address or domain you control)',
        validate: mailAnswer,
      });
      // An old senderIdentity belonged to the example address.
      changes.senderIdentity = undefined;
    }
    await ctx.writeConfig(changes);
    return [result('Addresses', 'changed', `owner ${ctx.config.ownerEmail}, sender ${ctx.config.senderEmail} (cdk.json)`)];
  },
};
