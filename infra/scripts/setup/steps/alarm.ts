/** npm run setup, step 10: alarm mail (after a deploy). */
import { paginateListStackResources, type StackResourceSummary } from '@aws-sdk/client-cloudformation';
import { paginateListSubscriptionsByTopic, type Subscription, SubscribeCommand } from '@aws-sdk/client-sns';
import { isStackMissing } from '../../kit/aws';
import { type Step, awsFailure, call, result, fromNow, waiting, applyPlan } from './step';

/**
 * SNS drops an e-mail subscription nobody confirmed after 48 hours. Source: AWS What's New, 2023-05-10,
 * "Amazon SNS now supports automatic deletion of unconfirmed subscriptions after 48 hours":
 * https://aws.amazon.com/about-aws/whats-new/2023/05/amazon-sns-automatic-deletion-unconfirmed-subscriptions/
 */
const SNS_CONFIRM_HOURS = 48;

export const alarmStep: Step = {
  id: 'alarm',
  async run(ctx) {
    const cfn = ctx.clients.cloudFormation(ctx.config.region);
    // Both lists come in pages (NextToken): the topic and the owner's subscription may be on any of them.
    const resources: StackResourceSummary[] = [];
    try {
      for await (const page of paginateListStackResources({ client: cfn }, { StackName: ctx.config.stackName }))
        resources.push(...(page.StackResourceSummaries ?? []));
    } catch (error) {
      if (isStackMissing(error)) {
        return [result('Alarm mail', 'skipped', `after the first deploy (no stack ${ctx.config.stackName} yet)`)];
      }
      throw awsFailure('cloudformation:ListStackResources', error);
    }
    const topic = resources.find((r) => r.ResourceType === 'AWS::SNS::Topic')?.PhysicalResourceId;
    if (!topic) return [result('Alarm mail', 'skipped', `the stack ${ctx.config.stackName} has no alarm topic yet`)];
    const owner = ctx.config.ownerEmail.toLowerCase();
    const subscriptions = await call('sns:ListSubscriptionsByTopic', async () => {
      const all: Subscription[] = [];
      for await (const page of paginateListSubscriptionsByTopic({ client: ctx.clients.sns }, { TopicArn: topic }))
        all.push(...(page.Subscriptions ?? []));
      return all;
    });
    const mine = subscriptions.find((s) => s.Protocol === 'email' && (s.Endpoint ?? '').toLowerCase() === owner);
    if (mine && mine.SubscriptionArn !== 'PendingConfirmation') return [result('Alarm mail', 'ready', `${owner} receives the alarms`)];
    const pending = `you: confirm the "AWS Notification - Subscription Confirmation" mail to ${owner} (SNS drops it after ${SNS_CONFIRM_HOURS} h)`;
    if (mine) {
      return [
        waiting('Alarm mail', `${owner}: subscription not confirmed yet`, pending, {
          sinceUnknown: 'SNS lists a pending subscription without its date',
        }),
      ];
    }
    const applied = await applyPlan(ctx, 'Alarm mail', {
      change: `subscribe ${owner} to the alarm topic again (an unconfirmed subscription is dropped after ${SNS_CONFIRM_HOURS} h)`,
      cost: 'nothing (SNS e-mail)',
      consentId: 'subscribe-alarms',
      apply: () =>
        call('sns:Subscribe', () =>
          ctx.clients.sns.send(new SubscribeCommand({ TopicArn: topic, Protocol: 'email', Endpoint: ctx.config.ownerEmail })),
        ).then(() => undefined),
    });
    if (!applied) return [waiting('Alarm mail', `${owner} is not subscribed (your answer)`, 'you: run npm run setup again', fromNow(ctx))];
    return [waiting('Alarm mail', `${owner}: subscribed, confirmation mail sent`, pending, fromNow(ctx))];
  },
};
