/** The budget check and the request setup sends, through the real AWS Budgets client against the fake AWS. */
import { BudgetsClient } from '@aws-sdk/client-budgets';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/portfolio-config';
import { startFakeAws, type FakeAws } from '../../../tools/fake-aws';
import { createBudgetCommand } from '../setup/steps/budget';
import { budgetName, checkBudget } from './budget';

let aws: FakeAws;
let budgets: BudgetsClient;
const config = parseConfig({
  ownerEmail: 'jane@owner-mail.dev',
  senderEmail: 'hello@jane.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  monthlyBudgetUsd: 25,
});
const ACCOUNT = '123456789012';

beforeAll(async () => {
  aws = await startFakeAws();
  budgets = new BudgetsClient({
    region: 'us-east-1',
    endpoint: aws.url,
    credentials: { accessKeyId: 'AKIAFAKE', secretAccessKey: 'fake' },
  });
});
afterAll(async () => {
  budgets.destroy();
  await aws.stop();
});

const spend = (actual: string, forecast: string) =>
  fetch(`${aws.url}/__hooks/budget-spend?name=${budgetName(config)}&actual=${actual}&forecast=${forecast}`, { method: 'POST' });

describe('the cost budget', () => {
  it('is a warning while missing, naming npm run setup and the amount', async () => {
    const result = await checkBudget(budgets, ACCOUNT, config);
    expect(result).toMatchObject({ status: 'warn', detail: expect.stringContaining('no budget Portfolio-monthly-cost') });
    expect(result.fix).toMatch(/npm run setup.*\$25 a month/);
  });

  it('is created as a monthly cost budget mailing the owner, then passes with the month so far', async () => {
    await budgets.send(createBudgetCommand(ACCOUNT, config));
    expect(aws.state.budgets[budgetName(config)]).toEqual({
      limit: '25',
      actual: '0.0',
      forecast: '0.0',
      alerts: ['ACTUAL>80%', 'ACTUAL>100%', 'FORECASTED>100%'],
      subscribers: ['jane@owner-mail.dev'],
    });
    await spend('3.10', '7.00');
    expect(await checkBudget(budgets, ACCOUNT, config)).toMatchObject({
      status: 'pass',
      detail: expect.stringContaining('$3.10 spent this month, $7.00 forecast, of $25'),
    });
  });

  it('warns once the forecast passes the amount or the spend passes 80%', async () => {
    await spend('3.10', '31.00');
    expect(await checkBudget(budgets, ACCOUNT, config)).toMatchObject({
      status: 'warn',
      detail: expect.stringMatching(/in alarm: \$3\.10 spent/),
    });
    await spend('20.00', '21.00');
    expect((await checkBudget(budgets, ACCOUNT, config)).status).toBe('warn');
  });

  it('warns naming budgets:ViewBudget when the credentials may not read it (a deploy role is not stopped by it)', async () => {
    aws.state.denied.push('budgets:ViewBudget');
    const result = await checkBudget(budgets, ACCOUNT, config);
    aws.state.denied.pop();
    expect(result).toMatchObject({ status: 'warn', fix: expect.stringContaining('budgets:ViewBudget') });
  });
});
