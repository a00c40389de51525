/**
 * The CloudWatch metrics the handlers emit and the stack's dashboard and alarms read: one list, so
 * renaming a metric here renames it everywhere (a test checks that every metric the stack reads is
 * one a handler emits).
 */

/** The namespace the handlers write to (Powertools' POWERTOOLS_METRICS_NAMESPACE) and the stack reads. */
export const METRICS_NAMESPACE = 'Portfolio';

/** Powertools adds this dimension to every metric, with the function's service name as its value. */
export const SERVICE_DIMENSION = 'service';

/** Service names of the two functions (the `service` dimension and the log field). */
export const SERVICE_NAMES = {
  contact: 'contact',
  events: 'events',
  vitals: 'vitals',
  redelivery: 'redelivery',
  mailEvents: 'mail-events',
} as const;

export const CONTACT_METRICS = {
  /** A message was mailed to the owner. */
  sent: 'ContactMessageSent',
  /** The request was refused with a 4xx other than a refused captcha (bad input, wrong method, …). */
  rejected: 'ContactMessageRejected',
  /** reCAPTCHA refused the token (403): many of these mean a mismatched site key and secret. */
  captchaRefused: 'ContactCaptchaRefused',
  /** The verifier or SES failed (5xx); nothing was sent. */
  failed: 'ContactMessageFailed',
  /** One address sent more than its share (429), answered without asking Google. */
  addressLimited: 'ContactAddressLimited',
  /** A request reached the API without CloudFront's origin header (403): someone calls execute-api directly. */
  originRefused: 'ContactOriginRefused',
  /**
   * The captcha needs the owner: the month's siteverify calls passed the warning share of the budget,
   * the budget is spent (503 until the month turns), or Google answered about quota, billing or keys.
   * One metric for the three, read by one alarm (each metric an alarm reads is billed); the log line
   * says which and what to do.
   */
  captchaNeedsOwner: 'ContactCaptchaNeedsOwner',
  /** The flood counters (the archive's table) did not answer: the request was refused with 503, uncounted requests never go on. */
  countersUnavailable: 'ContactCountersUnavailable',
} as const;

/** The message archive: the contact, redelivery and mail-event functions emit these; alarms read them. */
export const ARCHIVE_METRICS = {
  /** The archive could not be written, and the message was mailed without it. */
  archiveUnavailable: 'ArchiveUnavailable',
  /** The redelivery mailed a message that was pending. */
  redelivered: 'MessageRedelivered',
  /** A message was marked failed (SES refused it for good, or it stayed pending past the give-up time). */
  failed: 'MessageFailed',
  /** SES's word on a mail (from the configuration set's event destination). */
  delivered: 'MailDelivered',
  bounced: 'MailBounced',
  complained: 'MailComplained',
} as const;

export const EVENT_METRICS = {
  /** One click event; dimension EventName. */
  click: 'ClickEvent',
} as const;

/**
 * Page-view vitals, only the two the alarm reads (each metric name is one billed custom metric, so
 * no dimension): LCP and INP in milliseconds, one value per page view that measured it. The
 * dashboard's tables and `npm run visitors` read the structured log lines instead (Logs Insights).
 */
export const VITALS_METRICS_EMF = {
  lcp: 'PageViewLCP',
  inp: 'PageViewINP',
} as const;

/** The dimension that files a click under its event name (or OTHER_EVENT). */
export const EVENT_NAME_DIMENSION = 'EventName';

export type ContactMetric = (typeof CONTACT_METRICS)[keyof typeof CONTACT_METRICS];
export type EventMetric = (typeof EVENT_METRICS)[keyof typeof EVENT_METRICS];
export type ArchiveMetric = (typeof ARCHIVE_METRICS)[keyof typeof ARCHIVE_METRICS];
export type VitalsEmfMetric = (typeof VITALS_METRICS_EMF)[keyof typeof VITALS_METRICS_EMF];
/** Every metric a handler may emit. */
export type MetricName = ContactMetric | EventMetric | ArchiveMetric | VitalsEmfMetric;
