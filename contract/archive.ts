/**
 * The message archive: what the contact function, the redelivery and mail-event functions, the
 * CDK stack, the local stack and the owner's `npm run messages` agree on. One DynamoDB table, one
 * item per accepted contact message.
 */

/** Every state a message can be in. `pending` is waiting for (re)delivery; the rest are final unless resent. */
export const MESSAGE_STATUSES = ['pending', 'sent', 'delivered', 'bounced', 'complained', 'failed'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

/** One archived message, as the functions store it (attribute names as in ARCHIVE_ATTRIBUTES). */
export interface ArchivedMessage {
  id: string;
  receivedAt: string;
  name: string;
  email: string;
  message: string;
  language?: string;
  status: MessageStatus;
  attempts: number;
  lastError?: string;
  sesMessageId?: string;
  /** Epoch seconds: the table's time-to-live. */
  expiresAt: number;
  idempotencyHash?: string;
  /** Epoch ms: the current sender's claim, absent when nobody holds one. */
  claimedUntil?: number;
  /** ISO 8601: when the owner resent it; the redelivery's give-up counts from here (else from receivedAt). */
  pendingSince?: string;
}

/** Attribute names of an archived message. */
export const ARCHIVE_ATTRIBUTES = {
  /** Partition key (S): the message id, a UUID. */
  id: 'id',
  /** S, ISO 8601: when the contact function accepted the message. */
  receivedAt: 'receivedAt',
  name: 'name',
  email: 'email',
  message: 'message',
  /** S, optional: the page's language (a BCP 47 tag such as `es`) when the form said it. */
  language: 'language',
  /** S: one of MESSAGE_STATUSES. */
  status: 'status',
  /** N: SES SendEmail attempts so far. */
  attempts: 'attempts',
  /** S, optional: the last failure (an error name and SES's reason), never the visitor's text. */
  lastError: 'lastError',
  /** S, optional: SES's MessageId once SES accepted the mail. */
  sesMessageId: 'sesMessageId',
  /** N, epoch seconds: the table's time-to-live attribute. */
  expiresAt: 'expiresAt',
  /** S, optional: sha256 of the Idempotency-Key header and the body, to answer a repeat with the first answer. */
  idempotencyHash: 'idempotencyHash',
  /** S, optional, ISO 8601: when the owner put the message back in the queue (`resend`); the give-up counts from it, else from receivedAt. */
  pendingSince: 'pendingSince',
  /** N, optional, epoch ms: a sender's claim on the message; no other sender sends it before this passes. */
  claimedUntil: 'claimedUntil',
} as const;

/** Global secondary index for the redelivery: partition `status`, sort `receivedAt`. */
export const ARCHIVE_STATUS_INDEX = 'byStatus';

/**
 * The table as a DynamoDB CreateTable request: what the local stack creates in dynalite (and in an
 * outside server) and what the tests create; the CDK construct declares the same keys and index.
 */
export function archiveTableDefinition(tableName: string) {
  const A = ARCHIVE_ATTRIBUTES;
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: [
      { AttributeName: A.id, AttributeType: 'S' as const },
      { AttributeName: A.status, AttributeType: 'S' as const },
      { AttributeName: A.receivedAt, AttributeType: 'S' as const },
    ],
    KeySchema: [{ AttributeName: A.id, KeyType: 'HASH' as const }],
    GlobalSecondaryIndexes: [
      {
        IndexName: ARCHIVE_STATUS_INDEX,
        KeySchema: [
          { AttributeName: A.status, KeyType: 'HASH' as const },
          { AttributeName: A.receivedAt, KeyType: 'RANGE' as const },
        ],
        Projection: { ProjectionType: 'ALL' as const },
      },
    ],
  };
}

/**
 * The SES events the archive listens to, by the record's `eventType`, with the `detail-type` EventBridge
 * gives each (EventBridge events reference, "Amazon Simple Email Service events":
 * https://docs.aws.amazon.com/eventbridge/latest/ref/events-ref-ses.html; delivery type "best effort").
 * Send: "The send request was successful and SES will attempt to deliver the message" (SES API v2
 * Reference, EventDestination, MatchingEventTypes), which settles a send whose answer was lost.
 */
export const SES_EVENT_DETAIL_TYPES = {
  Send: 'Email Sent',
  Delivery: 'Email Delivered',
  Bounce: 'Email Bounced',
  Complaint: 'Email Complaint Received',
  Reject: 'Email Rejected',
} as const;
export type SesEventType = keyof typeof SES_EVENT_DETAIL_TYPES;

/** The SES message tag that carries the archive id, so SES's events find their message. */
export const ARCHIVE_ID_MESSAGE_TAG = 'archiveId';

/** Environment variables the archive's functions read. */
export const ARCHIVE_ENV = {
  /** The DynamoDB table's name. */
  table: 'ARCHIVE_TABLE',
  /** Days a message is kept (the owner's `messageRetentionDays`). */
  retentionDays: 'MESSAGE_RETENTION_DAYS',
  /** The SES configuration set named on every send (absent locally). */
  configurationSet: 'SES_CONFIGURATION_SET',
} as const;

/** The owner's default retention, in days (`messageRetentionDays` in cdk.json). */
export const DEFAULT_MESSAGE_RETENTION_DAYS = 365;

/**
 * How long the archive keeps a message: at least a day (DynamoDB's time-to-live deletes within days
 * of the expiry, so less means nothing), at most ten years (longer is no retention policy at all).
 * The deploy configuration and the web build (the privacy policy states it) both check it.
 */
export const MESSAGE_RETENTION_LIMITS = { min: 1, max: 3650 } as const;

/** How often the redelivery runs: on AWS (EventBridge schedule) and inside `npm start`. */
export const REDELIVERY_INTERVAL = { awsMinutes: 5, localMs: 5_000 } as const;

/** After this long a message still pending is marked `failed` and the owner is alarmed. */
export const REDELIVERY_GIVE_UP_MS = 24 * 60 * 60 * 1000;

/** The archive's scheduled and event-driven functions (the HTTP ones are in api-routes.ts). */
export const ARCHIVE_FUNCTIONS = {
  redelivery: { name: 'redelivery', entry: 'functions/redelivery/handler.ts', timeoutSeconds: 60 },
  mailEvents: { name: 'mail-events', entry: 'functions/mail-events/handler.ts', timeoutSeconds: 10 },
} as const;

/** The local archive's default port (`ARCHIVE_PORT`): `npm start` listens there, `npm run messages -- --local` reads there. */
export const LOCAL_ARCHIVE_PORT = 8006;

/** Table name of the local stack's archive (dynalite); the deployed one is named by CloudFormation. */
export const LOCAL_ARCHIVE_TABLE = 'portfolio-messages';
