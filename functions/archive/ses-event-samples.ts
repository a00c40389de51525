/**
 * SES's documented event records, as SES publishes them to SNS through a configuration set's event
 * destination. Source: Amazon SES Developer Guide, "Examples of event data that Amazon SES publishes
 * to Amazon SNS" (docs.aws.amazon.com/ses/latest/dg/event-publishing-retrieving-sns-examples.html):
 * the Bounce, Complaint, Delivery, Send and Reject records. Changes made here: the long `headers`
 * list is shortened to the From/To/Subject entries, and the samples' custom tag is replaced by the
 * tag our sends carry (`archiveId`), whose value each test sets. Only tests import this file.
 */
import type { EventBridgeEvent, SNSEvent } from 'aws-lambda';
import { SES_EVENT_DETAIL_TYPES } from '../../contract/archive';

const mail = {
  timestamp: '2017-08-05T00:40:02.012Z',
  source: 'Sender Name <sender@example.com>',
  sourceArn: 'arn:aws:ses:us-east-1:123456789012:identity/sender@example.com',
  sendingAccountId: '123456789012',
  messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
  destination: ['recipient@example.com'],
  headersTruncated: false,
  headers: [
    { name: 'From', value: 'Sender Name <sender@example.com>' },
    { name: 'To', value: 'recipient@example.com' },
    { name: 'Subject', value: 'Message sent from Amazon SES' },
  ],
  commonHeaders: {
    from: ['Sender Name <sender@example.com>'],
    to: ['recipient@example.com'],
    messageId: 'EXAMPLE7c191be45-e9aedb9a-02f9-4d12-a87d-dd0099a07f8a-000000',
    subject: 'Message sent from Amazon SES',
  },
  tags: {
    'ses:configuration-set': ['ConfigSet'],
    'ses:source-ip': ['192.0.2.0'],
    'ses:from-domain': ['example.com'],
    'ses:caller-identity': ['ses_user'],
  } as Record<string, string[]>,
};

export const SES_EVENT_SAMPLES = {
  Bounce: {
    eventType: 'Bounce',
    bounce: {
      bounceType: 'Permanent',
      bounceSubType: 'General',
      bouncedRecipients: [
        { emailAddress: 'recipient@example.com', action: 'failed', status: '5.1.1', diagnosticCode: 'smtp; 550 5.1.1 user unknown' },
      ],
      timestamp: '2017-08-05T00:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      reportingMTA: 'dsn; mta.example.com',
    },
    mail,
  },
  Complaint: {
    eventType: 'Complaint',
    complaint: {
      complainedRecipients: [{ emailAddress: 'recipient@example.com' }],
      timestamp: '2017-08-05T00:41:02.669Z',
      feedbackId: '01000157c44f053b-61b59c11-9236-11e6-8f96-7be8aexample-000000',
      userAgent: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/60.0.3112.90 Safari/537.36',
      complaintFeedbackType: 'abuse',
      arrivalDate: '2017-08-05T00:41:02.669Z',
    },
    mail,
  },
  Delivery: {
    eventType: 'Delivery',
    mail,
    delivery: {
      timestamp: '2016-10-19T23:21:04.133Z',
      processingTimeMillis: 11893,
      recipients: ['recipient@example.com'],
      smtpResponse: '250 2.6.0 Message received',
      reportingMTA: 'mta.example.com',
    },
  },
  Send: { eventType: 'Send', mail, send: {} },
  Reject: { eventType: 'Reject', mail, reject: { reason: 'Bad content' } },
} as const;

export type SampleName = keyof typeof SES_EVENT_SAMPLES;

/** The sample as SNS hands it to Lambda: the record as a JSON string in Records[].Sns.Message. */
export function snsEvent(name: SampleName, archiveId: string | undefined): SNSEvent {
  const sample = structuredClone(SES_EVENT_SAMPLES[name]) as { mail: { tags: Record<string, string[]> } };
  if (archiveId !== undefined) sample.mail.tags.archiveId = [archiveId];
  return snsEnvelope(JSON.stringify(sample));
}

/**
 * The sample as EventBridge hands it to Lambda: the same record in `detail`, source `aws.ses`, and the
 * detail-type SES gives that event on EventBridge ("Email Sent", "Email Delivered", "Email Bounced",
 * "Email Complaint Received", "Email Rejected": contract/archive.ts, with its source).
 */
export function eventBridgeEvent(name: SampleName, archiveId: string | undefined): EventBridgeEvent<string, unknown> {
  const sample = structuredClone(SES_EVENT_SAMPLES[name]) as { mail: { tags: Record<string, string[]> } };
  if (archiveId !== undefined) sample.mail.tags.archiveId = [archiveId];
  return {
    version: '0',
    id: 'f8ab0cbc-0000-4000-8000-000000000000',
    'detail-type': SES_EVENT_DETAIL_TYPES[name],
    source: 'aws.ses',
    account: '123456789012',
    time: '2017-08-05T00:41:03Z',
    region: 'us-east-1',
    resources: ['arn:aws:ses:us-east-1:123456789012:configuration-set/ConfigSet'],
    detail: sample,
  };
}

export function snsEnvelope(message: string): SNSEvent {
  return {
    Records: [
      {
        EventVersion: '1.0',
        EventSubscriptionArn: 'arn:aws:sns:us-east-1:123456789012:mail-events:0d1b2c3e-0000-4000-8000-000000000000',
        EventSource: 'aws:sns',
        Sns: {
          SignatureVersion: '1',
          Timestamp: '2017-08-05T00:41:03.000Z',
          Signature: 'EXAMPLE',
          SigningCertUrl: 'https://sns.us-east-1.amazonaws.com/SimpleNotificationService-EXAMPLE.pem',
          MessageId: '95df01b4-ee98-5cb9-9903-4c221d41eb5e',
          Message: message,
          MessageAttributes: {},
          Type: 'Notification',
          UnsubscribeUrl: 'https://sns.us-east-1.amazonaws.com/?Action=Unsubscribe',
          TopicArn: 'arn:aws:sns:us-east-1:123456789012:mail-events',
          Subject: '',
        },
      },
    ],
  };
}
