/** npm run setup, last step: the account's monthly cost budget, mailing the owner (doctor/budget.ts). */
import { errorName } from '../../kit/aws';
import { CreateBudgetCommand, type NotificationWithSubscribers } from '@aws-sdk/client-budgets';
import type { PortfolioConfig } from '../../../config/portfolio-config';
import { BUDGET_ALERTS, budgetName, readBudget } from '../../doctor/budget';
import { SetupError } from '../context';
import { type Step, applyPlan, awsFailure, fromNow, result, waiting } from './step';

const STEP = 'Cost budget';

export const budgetStep: Step = {
  id: 'budget',
  async run(ctx) {
    const budgets = ctx.clients.budgets;
    if (!budgets) throw new SetupError('setup was built without an AWS Budgets client');
    const { state, result: check } = await readBudget(budgets, ctx.account, ctx.config);
    if (state === 'unreadable') throw new SetupError(`${check.detail}. ${check.fix ?? ''}`.trim());
    // An existing budget is the owner's: setup never changes its amount or alerts (the doctor reports them).
    if (state !== 'missing') return [result(STEP, 'ready', check.detail)];
    const name = budgetName(ctx.config);
    const alerts = BUDGET_ALERTS.map((a) => `${a.percent}% ${a.type === 'ACTUAL' ? 'spent' : 'forecast'}`).join(', ');
    const applied = await applyPlan(ctx, STEP, {
      change: `create the AWS Budgets cost budget ${name}: $${ctx.config.monthlyBudgetUsd} a month (monthlyBudgetUsd in cdk.json), mailing ${ctx.config.ownerEmail} at ${alerts}`,
      cost: "nothing for an account's first two budgets ($0.02 a day each beyond them)",
      consentId: 'create-budget',
      apply: async () => {
        try {
          await budgets.send(createBudgetCommand(ctx.account, ctx.config));
        } catch (error) {
          // Created meanwhile (another run): the budget is there, which is what this step wants.
          if (errorName(error) !== 'DuplicateRecordException') throw awsFailure('budgets:ModifyBudget', error);
        }
      },
    });
    if (!applied) return [waiting(STEP, `no budget ${name} (your answer)`, 'you: run npm run setup again', fromNow(ctx))];
    return [
      result(STEP, 'changed', `${name} created: $${ctx.config.monthlyBudgetUsd} a month, mails ${ctx.config.ownerEmail} at ${alerts}`),
    ];
  },
};

/** The CreateBudget request setup sends: a monthly cost budget with the alerts above, mailed to the owner. */
export function createBudgetCommand(account: string, config: PortfolioConfig): CreateBudgetCommand {
  const notifications: NotificationWithSubscribers[] = BUDGET_ALERTS.map((alert) => ({
    Notification: {
      NotificationType: alert.type,
      ComparisonOperator: 'GREATER_THAN',
      Threshold: alert.percent,
      ThresholdType: 'PERCENTAGE',
    },
    Subscribers: [{ SubscriptionType: 'EMAIL', Address: config.ownerEmail }],
  }));
  return new CreateBudgetCommand({
    AccountId: account,
    Budget: {
      BudgetName: budgetName(config),
      BudgetType: 'COST',
      TimeUnit: 'MONTHLY',
      BudgetLimit: { Amount: String(config.monthlyBudgetUsd), Unit: 'USD' },
    },
    NotificationsWithSubscribers: notifications,
  });
}
