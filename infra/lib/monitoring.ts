import { CAPTCHA_BUDGET_WARNING_SHARE } from '../../contract/limits';
import { Duration, Lazy, Stack, Validations } from 'aws-cdk-lib';
import type * as apigwv2 from 'aws-cdk-lib/aws-apigatewayv2';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as actions from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type * as logs from 'aws-cdk-lib/aws-logs';
import * as sns from 'aws-cdk-lib/aws-sns';
import type * as sqs from 'aws-cdk-lib/aws-sqs';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import { Construct } from 'constructs';
import {
  ARCHIVE_METRICS,
  type ArchiveMetric,
  CONTACT_METRICS,
  type ContactMetric,
  EVENT_METRICS,
  EVENT_NAME_DIMENSION,
  METRICS_NAMESPACE,
  SERVICE_DIMENSION,
  SERVICE_NAMES,
  VITALS_METRICS_EMF,
} from '../../contract/metrics';
import { VITALS_THRESHOLDS } from '../../contract/vitals';
import { PAGE_VIEWS_BY_DAY_QUERY, REFUSED_PAGE_VIEWS_QUERY, VITALS_P75_QUERY } from '../shared/page-view-queries';
import { CAPTCHA_ALARM_ID } from '../shared/stack-output-keys';

export interface MonitoringProps {
  readonly ownerEmail: string;
  readonly api: apigwv2.HttpApi;
  readonly contactFunction: lambda.IFunction;
  readonly eventsFunction: lambda.IFunction;
  readonly vitalsFunction: lambda.IFunction;
  /** The vitals function's log group: its page-view lines feed the dashboard's Logs Insights widgets. */
  readonly vitalsLogGroup: logs.ILogGroup;
  /** The archive's scheduled and event-driven functions (redelivery, mail events): their errors alarm too. */
  readonly archiveFunctions: readonly lambda.IFunction[];
  /** The mail-events function's on-failure queue: SES events it could not apply after Lambda's retries. */
  readonly failedMailEvents: sqs.IQueue;
  /**
   * A preview stage: nobody is subscribed (no confirmation mail per pull request), and only the alarms
   * a pull request's own code can set off are made (PREVIEW_ALARMS); the captcha key pair, SES and the
   * owner's mailbox belong to the live site.
   */
  readonly preview?: boolean;
}

/** The alarms a preview keeps: faults of the code under review, never of the outside world. */
export const PREVIEW_ALARMS = ['ContactErrors', 'ApiServerErrors', 'ArchiveUnavailable', 'ArchiveFunctionErrors'] as const;

/** The functions that may count an archive metric: each adds its own `service` dimension. */
const ARCHIVE_METRIC_SERVICES = [SERVICE_NAMES.contact, SERVICE_NAMES.redelivery, SERVICE_NAMES.mailEvents] as const;

/**
 * Archive metrics summed over every function that may emit them (the contact function marks a
 * refused message failed, the redelivery one that stayed pending too long, the mail-events function a
 * rejected one), so an alarm does not depend on which of them counted it. SUM over an array of
 * series ignores the ones without data.
 */
export function archiveMetricSum(names: readonly ArchiveMetric[], options: { period: Duration; label: string }): cloudwatch.MathExpression {
  const usingMetrics: Record<string, cloudwatch.IMetric> = {};
  // Ids from the metric's name, so two sums on one graph share (not clash on) the same series.
  const idOf = (name: string, service: number) => `${name.charAt(0).toLowerCase()}${name.slice(1)}_${service}`;
  names.forEach((name) =>
    ARCHIVE_METRIC_SERVICES.forEach((service, s) => {
      usingMetrics[idOf(name, s)] = new cloudwatch.Metric({
        namespace: METRICS_NAMESPACE,
        metricName: name,
        dimensionsMap: { [SERVICE_DIMENSION]: service },
        statistic: 'Sum',
        period: options.period,
      });
    }),
  );
  return new cloudwatch.MathExpression({
    expression: `SUM([${Object.keys(usingMetrics).join(',')}])`,
    usingMetrics,
    period: options.period,
    label: options.label,
  });
}

/**
 * Refused captchas that make the owner look: a visitor retrying a few times, or every send refused
 * because the site key and the stored secret do not belong together. A bot's stray refusal stays below.
 */
export const CAPTCHA_REFUSALS_ALARM = { threshold: 3, period: Duration.hours(1) } as const;

/**
 * The field alarms: over the last day, the 75th percentile of visitors' LCP (or INP) is "poor" by
 * Google's thresholds (contract/vitals.ts). A day with too few page views to mean something leaves
 * the alarm as it was: CloudWatch's own rule for percentile alarms ("ignore" below 10/(1-0.75) = 40
 * values of the day; "Percentile-based alarms and low data samples":
 * https://docs.aws.amazon.com/AmazonCloudWatch/latest/monitoring/percentiles-with-low-samples.html).
 * One metric per alarm: CloudWatch bills an alarm per metric it reads (docs/deploy.md, costs).
 */
export const SLOW_PAGES_ALARM = { percentile: 75, period: Duration.days(1) } as const;
/** The fewest page views of a day that move a p75 alarm (10 / (1 - 0.75)). */
export const SLOW_PAGES_MIN_VIEWS = Math.ceil(10 / (1 - SLOW_PAGES_ALARM.percentile / 100));

/** A vitals metric (LCP or INP, milliseconds) as the vitals function emits it. */
export function vitalsMetric(name: keyof typeof VITALS_METRICS_EMF, options: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: VITALS_METRICS_EMF[name],
    dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAMES.vitals },
    statistic: `p${SLOW_PAGES_ALARM.percentile}`,
    ...options,
  });
}

/** A metric the contact handler emits (namespace, name and dimension from contract/metrics.ts). */
export function contactMetric(name: ContactMetric, options: cloudwatch.MetricOptions = {}): cloudwatch.Metric {
  return new cloudwatch.Metric({
    namespace: METRICS_NAMESPACE,
    metricName: name,
    dimensionsMap: { [SERVICE_DIMENSION]: SERVICE_NAMES.contact },
    statistic: 'Sum',
    ...options,
  });
}

/** An alarm that fires on one datapoint at or over the threshold (1 unless given), and stays quiet without data. */
export function ownerAlarm(
  scope: Construct,
  id: string,
  alarmDescription: string,
  metric: cloudwatch.IMetric,
  props: Partial<cloudwatch.AlarmProps> = {},
): cloudwatch.Alarm {
  return new cloudwatch.Alarm(scope, id, {
    alarmDescription,
    metric,
    threshold: 1,
    evaluationPeriods: 1,
    comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
    treatMissingData: cloudwatch.TreatMissingData.NOT_BREACHING,
    ...props,
  });
}

/**
 * The topic the alarms mail the owner through. The owner confirms the subscription from the first
 * e-mail AWS sends after the deploy; a preview subscribes nobody: its alarms show in the CloudWatch
 * console, and no pull request mails the owner.
 */
function alarmTopic(scope: Construct, props: MonitoringProps): sns.Topic {
  const topic = new sns.Topic(scope, 'AlarmTopic', {
    // The sender name of the alarm mails: says which copy of the site (live or a preview stage) alarmed.
    displayName: `${Stack.of(scope).stackName} alarms`,
    enforceSSL: true,
  });
  if (!props.preview) topic.addSubscription(new subscriptions.EmailSubscription(props.ownerEmail));
  Validations.of(topic).acknowledge({
    id: 'AwsSolutions-SNS2',
    reason:
      'The topic carries only alarm state changes (metric names and thresholds), never visitor data; CloudWatch ' +
      'alarms cannot publish to a topic encrypted with the AWS-managed aws/sns key, and a customer-managed key ' +
      'would cost more than the rest of the stack.',
  });
  return topic;
}

/**
 * What the owner watches: an e-mail when the contact function fails, the API answers 5xx or captchas
 * are refused, and one dashboard with messages, errors, latency and click counts by event name.
 */
export class Monitoring extends Construct {
  readonly topic: sns.Topic;
  readonly contactErrorsAlarm: cloudwatch.Alarm;
  readonly apiServerErrorsAlarm: cloudwatch.Alarm;
  /** Live site only (see MonitoringProps.preview). */
  readonly captchaRefusedAlarm?: cloudwatch.Alarm;
  readonly captchaNeedsOwnerAlarm?: cloudwatch.Alarm;
  readonly messageFailedAlarm?: cloudwatch.Alarm;
  readonly mailBouncedAlarm?: cloudwatch.Alarm;
  readonly archiveUnavailableAlarm: cloudwatch.Alarm;
  /** The flood counters did not answer: the form refuses every message (503) until they do. */
  readonly countersUnavailableAlarm?: cloudwatch.Alarm;
  readonly archiveFunctionErrorsAlarm: cloudwatch.Alarm;
  readonly mailEventsFailedAlarm?: cloudwatch.Alarm;
  readonly slowLcpAlarm?: cloudwatch.Alarm;
  readonly slowInpAlarm?: cloudwatch.Alarm;
  readonly dashboard: cloudwatch.Dashboard;
  /** Every alarm that mails the owner (the topic policy lets exactly these publish). */
  private readonly notified: cloudwatch.Alarm[] = [];

  /** Mails the owner when the alarm fires and when it is back to OK; the topic policy admits it. */
  notifyOwner(alarm: cloudwatch.Alarm): void {
    const notify = new actions.SnsAction(this.topic);
    alarm.addAlarmAction(notify);
    alarm.addOkAction(notify);
    this.notified.push(alarm);
  }

  private readonly alarm = (id: string, description: string, metric: cloudwatch.IMetric, props?: Partial<cloudwatch.AlarmProps>) =>
    ownerAlarm(this, id, description, metric, props);

  constructor(scope: Construct, id: string, props: MonitoringProps) {
    super(scope, id);
    const period = Duration.minutes(5);
    const live = !props.preview;
    this.topic = alarmTopic(this, props);

    this.contactErrorsAlarm = this.alarm(
      'ContactErrors',
      'The contact function failed (a visitor message may not have reached you). See its logs.',
      props.contactFunction.metricErrors({ period, statistic: 'Sum' }),
    );
    this.apiServerErrorsAlarm = this.alarm(
      'ApiServerErrors',
      'The API answered 5xx (reCAPTCHA verifier or SES failing?). See the API access logs.',
      props.api.metricServerError({ period, statistic: 'Sum' }),
    );
    if (live) {
      this.captchaRefusedAlarm = this.alarm(
        'CaptchaRefused',
        `reCAPTCHA refused ${CAPTCHA_REFUSALS_ALARM.threshold} or more contact sends within an hour: visitors ` +
          'cannot reach you. If every send is refused, the site key (cdk.json recaptchaSiteKey) and the secret in SSM ' +
          "are not a pair, or the site's domain is missing from the key's domain list.",
        contactMetric(CONTACT_METRICS.captchaRefused, { period: CAPTCHA_REFUSALS_ALARM.period }),
        { threshold: CAPTCHA_REFUSALS_ALARM.threshold },
      );
      this.messageFailedAlarm = this.alarm(
        'MessageFailed',
        'A contact message was marked failed: SES refused it for good, or it could not be sent for 24 hours. It is ' +
          'kept in the archive with the reason: `npm run messages` lists it; fix SES, then `npm run messages -- resend ID`.',
        archiveMetricSum([ARCHIVE_METRICS.failed], { period, label: 'messages failed' }),
      );
      this.mailBouncedAlarm = this.alarm(
        'MailBouncedOrComplained',
        'A contact mail to you bounced or was reported as spam, so you may not have read it. `npm run messages` ' +
          'shows it (status bounced or complained); check your mailbox and its spam filter.',
        archiveMetricSum([ARCHIVE_METRICS.bounced, ARCHIVE_METRICS.complained], { period, label: 'mails bounced or complained' }),
      );
    }
    this.archiveUnavailableAlarm = this.alarm(
      'ArchiveUnavailable',
      'The message archive could not be written: a message was mailed to you but is not in `npm run messages`. ' +
        "See the contact function's logs (DynamoDB throttled, or its permissions changed?).",
      archiveMetricSum([ARCHIVE_METRICS.archiveUnavailable], { period, label: 'archive unavailable' }),
    );
    this.archiveFunctionErrorsAlarm = this.alarm(
      'ArchiveFunctionErrors',
      "The redelivery or the mail-events function failed: pending messages may wait, or a mail's status was not " +
        'recorded. See their logs.',
      new cloudwatch.MathExpression({
        expression: `SUM([${props.archiveFunctions.map((_, i) => `e${i}`).join(',')}])`,
        usingMetrics: Object.fromEntries(props.archiveFunctions.map((fn, i) => [`e${i}`, fn.metricErrors({ period, statistic: 'Sum' })])),
        period,
        label: 'archive function errors',
      }),
    );
    // Live only: a preview's mail-events errors already show in ArchiveFunctionErrors.
    if (live) {
      this.mailEventsFailedAlarm = this.alarm(
        'MailEventsFailed',
        "SES's word on a contact mail (send, delivery, bounce, complaint or reject) could not be recorded after Lambda's " +
          "retries, so a message's status in `npm run messages` may be out of date. The event waits 14 days: " +
          `aws sqs receive-message --queue-url ${props.failedMailEvents.queueUrl} shows it; see the mail-events ` +
          "function's logs.",
        props.failedMailEvents.metricApproximateNumberOfMessagesVisible({ period, statistic: 'Maximum' }),
      );
      // Live only: a preview's few visits say nothing about visitors' experience.
      this.slowLcpAlarm = this.slowPagesAlarm('SlowLoadingForVisitors', 'lcp', 'Largest Contentful Paint (LCP)');
      this.slowInpAlarm = this.slowPagesAlarm('SlowResponsesForVisitors', 'inp', 'Interaction to Next Paint (INP)');
      // The siteverify budget and Google's answers about quota, billing and keys: the owner's to act on.
      this.captchaNeedsOwnerAlarm = this.alarm(
        CAPTCHA_ALARM_ID,
        `reCAPTCHA needs you: the contact form used ${CAPTCHA_BUDGET_WARNING_SHARE * 100}% of this month's siteverify ` +
          "budget (cdk.json captchaMonthlyBudget), or spent today's daily portion of it (503 until midnight UTC: usually a flood " +
          'of bogus tokens) or the whole month (503 until the first of the month, UTC), or ' +
          "Google answered about quota, billing or keys (503, nothing sent). The contact function's log line says which and " +
          "what to do: enable billing on the key's Google Cloud project and raise the budget, or make a new key " +
          '(npm run setup); npm run doctor checks the key. See docs/deploy.md, "reCAPTCHA".',
        contactMetric(CONTACT_METRICS.captchaNeedsOwner, { period }),
      );
      // Fails closed on purpose (an uncounted request could spend the budget unseen), so the owner must hear
      // of it. Live only, as the captcha's alarm: a preview's form has Google's test key and no budget to guard.
      this.countersUnavailableAlarm = this.alarm(
        'ContactCountersUnavailable',
        "The contact form's flood counters (items of the archive's DynamoDB table) did not answer, so the form refused " +
          "messages with 503 rather than send them uncounted. The contact function's log line has DynamoDB's error; see docs/deploy.md.",
        contactMetric(CONTACT_METRICS.countersUnavailable, { period }),
      );
    }
    const alarms = [
      this.captchaNeedsOwnerAlarm,
      this.countersUnavailableAlarm,
      this.contactErrorsAlarm,
      this.apiServerErrorsAlarm,
      this.captchaRefusedAlarm,
      this.messageFailedAlarm,
      this.mailBouncedAlarm,
      this.archiveUnavailableAlarm,
      this.archiveFunctionErrorsAlarm,
      this.mailEventsFailedAlarm,
      this.slowLcpAlarm,
      this.slowInpAlarm,
    ].filter((alarm) => alarm !== undefined);
    for (const alarm of alarms) this.notifyOwner(alarm);
    this.admitNotifiedAlarms();
    this.dashboard = new cloudwatch.Dashboard(this, 'Dashboard', {
      defaultInterval: Duration.days(7),
      widgets: [...this.serviceWidgets(props, period), ...this.visitorWidgets(props.vitalsLogGroup)],
    });
  }

  /** A day's p75 of a Core Web Vital over Google's "poor" line, once enough page views report it. */
  private slowPagesAlarm(id: string, metric: 'lcp' | 'inp', what: string): cloudwatch.Alarm {
    return this.alarm(
      id,
      `Over the last day, the 75th percentile of visitors' ${what} was above ${VITALS_THRESHOLDS[metric].poor} ms ` +
        `("poor" by Google's Core Web Vitals thresholds), over at least ${SLOW_PAGES_MIN_VIEWS} page views. ` +
        '`npm run visitors -- --days 1` shows which route and device class; the dashboard shows the same.',
      vitalsMetric(metric, { period: SLOW_PAGES_ALARM.period }),
      {
        threshold: VITALS_THRESHOLDS[metric].poor,
        comparisonOperator: cloudwatch.ComparisonOperator.GREATER_THAN_THRESHOLD,
        evaluateLowSampleCountPercentile: 'ignore',
      },
    );
  }

  /**
   * A topic policy replaces SNS's default one, and enforceSSL's holds only a Deny: without this
   * statement CloudWatch is refused when an alarm publishes. Only this account's alarms of this stack
   * may publish (no cycle: the policy depends on the alarms, the alarms only on the topic).
   */
  private admitNotifiedAlarms(): void {
    this.topic.addToResourcePolicy(
      new iam.PolicyStatement({
        sid: 'AllowThisStacksAlarmsToPublish',
        principals: [new iam.ServicePrincipal('cloudwatch.amazonaws.com')],
        actions: ['sns:Publish'],
        resources: [this.topic.topicArn],
        conditions: {
          StringEquals: { 'aws:SourceAccount': Stack.of(this).account },
          // Lazy: alarms of other constructs join through notifyOwner after this statement is made.
          ArnEquals: { 'aws:SourceArn': Lazy.list({ produce: () => this.notified.map((alarm) => alarm.alarmArn) }) },
        },
      }),
    );
  }

  /** The service's rows: contact messages, errors, latency, click events and the message archive. */
  private serviceWidgets(props: MonitoringProps, period: Duration): cloudwatch.IWidget[][] {
    const contactLine = (name: ContactMetric, label: string) => contactMetric(name, { period, label });
    return [
      [
        new cloudwatch.GraphWidget({
          title: 'Contact messages',
          width: 12,
          left: [
            contactLine(CONTACT_METRICS.sent, 'sent'),
            contactLine(CONTACT_METRICS.rejected, 'rejected (bad input)'),
            contactLine(CONTACT_METRICS.captchaRefused, 'captcha refused'),
            contactLine(CONTACT_METRICS.failed, 'failed (verifier or SES)'),
          ],
        }),
        new cloudwatch.GraphWidget({
          title: 'Errors',
          width: 12,
          left: [
            props.contactFunction.metricErrors({ period, label: 'contact function errors' }),
            props.eventsFunction.metricErrors({ period, label: 'events function errors' }),
            props.vitalsFunction.metricErrors({ period, label: 'vitals function errors' }),
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
                `SEARCH('{${METRICS_NAMESPACE},${EVENT_NAME_DIMENSION},${SERVICE_DIMENSION}} ` +
                `MetricName="${EVENT_METRICS.click}" ${SERVICE_DIMENSION}="${SERVICE_NAMES.events}"', 'Sum', 3600)`,
              label: '',
              period: Duration.hours(1),
            }),
          ],
          legendPosition: cloudwatch.LegendPosition.RIGHT,
        }),
      ],
      [
        new cloudwatch.GraphWidget({
          title: 'Message archive',
          width: 24,
          left: [
            archiveMetricSum([ARCHIVE_METRICS.redelivered], { period, label: 'redelivered' }),
            archiveMetricSum([ARCHIVE_METRICS.delivered], { period, label: 'delivered (SES)' }),
            archiveMetricSum([ARCHIVE_METRICS.bounced], { period, label: 'bounced' }),
            archiveMetricSum([ARCHIVE_METRICS.complained], { period, label: 'complained' }),
            archiveMetricSum([ARCHIVE_METRICS.failed], { period, label: 'failed' }),
            archiveMetricSum([ARCHIVE_METRICS.archiveUnavailable], { period, label: 'archive unavailable' }),
          ],
        }),
      ],
    ];
  }

  /**
   * What visitors meet: page views per day and route, and p75 LCP, INP and CLS per route and device
   * class (Logs Insights over the page-view lines), with the daily p75 LCP and INP the alarm reads,
   * drawn against Google's "good" and "poor" lines.
   */
  private visitorWidgets(logGroup: logs.ILogGroup): cloudwatch.IWidget[][] {
    const day = Duration.days(1);
    // A vital's daily p75, against Google's "good" and "poor" lines.
    const p75 = (metric: 'lcp' | 'inp') => {
      const { good, poor } = VITALS_THRESHOLDS[metric];
      return new cloudwatch.GraphWidget({
        title: `Visitors: p75 ${metric.toUpperCase()} per day (ms)`,
        width: 8,
        left: [vitalsMetric(metric, { period: day, label: `p75 ${metric.toUpperCase()}` })],
        leftAnnotations: [
          { value: good, label: `good ≤ ${good} ms`, color: '#2ca02c' },
          { value: poor, label: `poor > ${poor} ms`, color: '#d62728' },
        ],
      });
    };
    const { lcp, inp, cls } = VITALS_THRESHOLDS;
    // Logs Insights over the page-view lines, as a table.
    const table = (title: string, queryString: string, width: number, height: number) =>
      new cloudwatch.LogQueryWidget({
        title,
        logGroupNames: [logGroup.logGroupName],
        queryString,
        view: cloudwatch.LogQueryVisualizationType.TABLE,
        width,
        height,
      });
    return [
      [
        p75('lcp'),
        p75('inp'),
        new cloudwatch.GraphWidget({
          title: 'Visitors: page views with an LCP per day',
          width: 8,
          left: [vitalsMetric('lcp', { period: day, statistic: 'SampleCount', label: 'page views (first loads)' })],
          leftAnnotations: [{ value: SLOW_PAGES_MIN_VIEWS, label: 'the alarms count from here' }],
        }),
      ],
      [
        table(
          `Visitors: p75 per route and device (good: LCP ≤ ${lcp.good} ms, INP ≤ ${inp.good} ms, CLS ≤ ${cls.good}; ` +
            `poor: LCP > ${lcp.poor} ms, INP > ${inp.poor} ms, CLS > ${cls.poor})`,
          VITALS_P75_QUERY,
          14,
          8,
        ),
        table('Visitors: page views per day and route', PAGE_VIEWS_BY_DAY_QUERY, 10, 8),
      ],
      [table('Visitors: refused page-view beacons per day and reason (kept nowhere else)', REFUSED_PAGE_VIEWS_QUERY, 24, 5)],
    ];
  }
}
