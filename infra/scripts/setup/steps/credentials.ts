/** npm run setup, step 1: credentials. */
import { checkCredentials } from '../../doctor/checks';
import { SetupError } from '../context';
import { type Step, result } from './step';

export const credentialsStep: Step = {
  id: 'credentials',
  async run(ctx) {
    const credentials = await checkCredentials(ctx.clients.sts);
    if (!credentials.ok) {
      const { detail, fix } = credentials.result;
      throw new SetupError(
        `${detail.replace(/`?npm run doctor`? again/, 'npm run setup again')}${fix ? ` ${fix.replace('npm run doctor', 'npm run setup')}` : ''}`,
      );
    }
    ctx.account = credentials.account;
    ctx.arn = credentials.result.detail.replace(/^account \d+ as /, '');
    if (ctx.options.expectAccount && ctx.options.expectAccount !== ctx.account) {
      throw new SetupError(
        `account ${ctx.account} is not the expected ${ctx.options.expectAccount} (--expect-account): switch credentials (e.g. export AWS_PROFILE=NAME) and run again`,
      );
    }
    return [result('AWS credentials', 'ready', credentials.result.detail)];
  },
};
