import { Duration, Validations } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';

export interface MonitoringProps {
  readonly ownerEmail: string;
  readonly api: apigwv2.HttpApi;
  readonly contactFunction: lambda.IFunction;
  readonly eventsFunction: lambda.IFunction;
  /** Namespace and Powertools service names the handlers write their metrics with. */
  readonly namespace: string;
  readonly contactService: string;
  readonly eventsService: string;
}

/** Metric names the handlers emit (functions/contact, functions/events). */
export const CONTACT_METRICS = ['ContactMessageSent', 'ContactMessageRejected', 'ContactMessageFailed'] as const;
export const CLICK_METRIC = 'ClickEvent';
export const CLICK_DIMENSION = 'EventName';

/**
 * What the owner watches: an e-mail when the contact function fails or the API answers 5xx, and one
 * dashboard with messages, errors, latency and click counts by event name.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly contactErrorsAlarm: cloudwatch.Alarm;
  readonly apiServerErrorsAlarm: cloudwatch.Alarm;
  readonly dashboard: cloudwatch.Dashboard;

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(5);

    this.topic = new sns.Topic(this, 'AlarmTopic', {
      displayName: 'Portfolio alarms',
      enforceSSL: true,
    });
    // The owner confirms the subscription from the first e-mail AWS sends after the deploy.
    this.topic.addSubscription(new subscriptions.EmailSubscription(props.ownerEmail));
    Validations.of(this.topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'The topic carries only alarm state changes (metric names and thresholds), never visitor data; CloudWatch ' +
        'alarms cannot publish to a topic encrypted with the AWS-managed aws/sns key, and a customer-managed key ' +
        'would cost more than the rest of the stack.',
    });

    const notify = new actions.SnsAction(this.topic);
    this.contactErrorsAlarm = new cloudwatch.Alarm(this, 'ContactErrors', {
      alarmDescription: 'The contact function failed (a visitor message may not have reached you). See its logs.',
      metric: props.contactFunction.metricErrors({ period, statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    this.apiServerErrorsAlarm = new cloudwatch.Alarm(this, 'ApiServerErrors', {
      alarmDescription: 'The API answered 5xx (reCAPTCHA verifier or SES failing?). See the API access logs.',
      metric: props.api.metricServerError({ period, statistic: 'Sum' }),
      threshold: 1,
      evaluationPeriods: 1,
      comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    });
    for (const alarm of [this.contactErrorsAlarm, this.apiServerErrorsAlarm]) {
      alarm.addAlarmAction(notify);
      alarm.addOkAction(notify);
    }

    const contactMetric = (metricName: string, label: string) =>
      new cloudwatch.Metric({
        namespace: props.namespace,
        metricName,
        dimensionsMap: { service: props.contactService },
        statistic: 'Sum',
        period,
        label,
      });
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.days(7),
      widgets: [
        [
          new cloudwatch.GraphWidget({
            title: 'Contact messages',
            width: 12,
            left: [
              contactMetric('ContactMessageSent', 'sent'),
              contactMetric('ContactMessageRejected', 'rejected (bad input or captcha)'),
              contactMetric('ContactMessageFailed', 'failed (verifier or SES)'),
            ],
          }),
          new cloudwatch.GraphWidget({
            title: 'Errors',
            width: 12,
            left: [
              props.contactFunction.metricErrors({ period, label: 'contact function errors' }),
              props.eventsFunction.metricErrors({ period, label: 'events function errors' }),
              props.api.metricServerError({ period, label: 'API 5xx' }),
              props.api.metricClientError({ period, label: 'API 4xx' }),
            ],
          }),
        ],
        [
          new cloudwatch.GraphWidget({
            title: 'Latency (ms)',
            width: 12,
            left: [
              props.api.metricLatency({ period, statistic: 'p50', label: 'API p50' }),
              props.api.metricLatency({ period, statistic: 'p99', label: 'API p99' }),
              props.contactFunction.metricDuration({ period, statistic: 'p99', label: 'contact function p99' }),
              props.eventsFunction.metricDuration({ period, statistic: 'p99', label: 'events function p99' }),
            ],
          }),
          new cloudwatch.GraphWidget({
            title: 'Click events by name (hourly)',
            width: 12,
            // SEARCH finds every EventName the site has sent, so new buttons appear without a deploy.
            left: [
              new cloudwatch.MathExpression({
                expression:
                  `SEARCH('{${props.namespace},${CLICK_DIMENSION},service} MetricName="${CLICK_METRIC}" ` +
                  `service="${props.eventsService}"', 'Sum', 3600)`,
                label: '',
                period: Duration.hours(1),
              }),
            ],
            legendPosition: cloudwatch.LegendPosition.RIGHT,
          }),
        ],
      ],
    });
  }
}
