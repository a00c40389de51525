/**
 * The account's AWS Budgets cost budget: `npm run doctor` reads it (missing, or already past a
 * threshold, is a warning) and `npm run setup` creates it with the same name, amount and alerts.
 *
 * What it costs and who may create it: a budget without actions costs nothing for an account's first
 * two (AWS Billing and Cost Management User Guide, "Managing your costs with AWS Budgets":
 * https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/budgets-managing-costs.html, "Your first
 * two active budgets are free of charge"). CreateBudget needs budgets:ModifyBudget and DescribeBudget
 * needs budgets:ViewBudget (Service Authorization Reference, "Actions, resources, and condition keys for
 * AWS Budget Service": https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsbudgetservice.html);
 * only the payer account of an organization can create one (same User Guide page).
 */
import { type BudgetsClient, DescribeBudgetCommand, type Budget } from '@aws-sdk/client-budgets';
import type { PortfolioConfig } from '../../config/portfolio-config';
import { errorName, errorText } from '../kit/aws';

/** Refused by IAM: a warning, not a failure, so a deploy role without the read is not stopped by it. */
export const isAccessDenied = (error: unknown) => /AccessDenied|not authorized/i.test(errorText(error));
import { type CheckResult, row, unreadable } from '../report';

/** The budget's name: one per stack name, so a second site in the account gets its own. */
export const budgetName = (config: Pick<PortfolioConfig, 'stackName'>) => `${config.stackName}-monthly-cost`;

/**
 * When the owner is mailed: actual spend past 80% and past 100% of the amount, and a forecast past
 * 100% (AWS forecasts the month's end from its spend so far, so a flood shows in days, not at the
 * month's end). AWS refreshes a budget up to three times a day (same User Guide page), which is
 * why the route breaker, not the budget, is the within-the-hour alarm.
 */
export const BUDGET_ALERTS = [
  { type: 'ACTUAL', percent: 80 },
  { type: 'ACTUAL', percent: 100 },
  { type: 'FORECASTED', percent: 100 },
] as const;

export const BUDGET_CHECK = 'AWS budget';

/** Where the budget stands, with the doctor's row for it. */
export type BudgetState = { state: 'missing' | 'ok' | 'alarm' | 'unreadable'; result: CheckResult };

/** The check: pass with the month's spend, warn when missing or past a threshold (or not readable by these credentials), fail when unreadable. */
export async function checkBudget(budgets: BudgetsClient, account: string, config: PortfolioConfig): Promise<CheckResult> {
  return (await readBudget(budgets, account, config)).result;
}

export async function readBudget(budgets: BudgetsClient, account: string, config: PortfolioConfig): Promise<BudgetState> {
  const name = budgetName(config);
  let budget: Budget | undefined;
  try {
    budget = (await budgets.send(new DescribeBudgetCommand({ AccountId: account, BudgetName: name }))).Budget;
  } catch (error) {
    if (errorName(error) !== 'NotFoundException') {
      const action = 'budgets:ViewBudget (the payer account of an organization holds its budgets)';
      const detail = `could not read budget ${name} (${errorText(error)})`;
      return { state: 'unreadable', result: unreadable(BUDGET_CHECK, detail, action, isAccessDenied(error) ? 'warn' : 'fail') };
    }
  }
  if (!budget) {
    const fix = `\`npm run setup\` creates it ($${config.monthlyBudgetUsd} a month from monthlyBudgetUsd in cdk.json, mails at 80% and 100% of actual spend and 100% forecast; free for an account's first two budgets).`;
    return { state: 'missing', result: row(BUDGET_CHECK, 'warn', `no budget ${name}: nothing mails you when the month's bill grows`, fix) };
  }
  const limit = Number(budget.BudgetLimit?.Amount ?? NaN);
  const actual = Number(budget.CalculatedSpend?.ActualSpend?.Amount ?? 0);
  const forecast = Number(budget.CalculatedSpend?.ForecastedSpend?.Amount ?? 0);
  const spend = `$${actual.toFixed(2)} spent this month, $${forecast.toFixed(2)} forecast, of $${limit}`;
  if (!Number.isFinite(limit) || actual >= 0.8 * limit || forecast >= limit) {
    const fix =
      'See what grows in the Billing console (Cost Explorer, by service); a flood on the API shows as a tripped route breaker in this table. docs/deploy.md, "The bill\'s ceiling", has the worst month.';
    return { state: 'alarm', result: row(BUDGET_CHECK, 'warn', `${name} is in alarm: ${spend}`, fix) };
  }
  return { state: 'ok', result: row(BUDGET_CHECK, 'pass', `${name}: ${spend}`) };
}
