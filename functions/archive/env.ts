/**
 * The archive functions' environment (redelivery, mail events): the table, and for sending the
 * owner's and sender's addresses and the configuration set. Read once per cold start; a missing or
 * malformed value throws naming it, so the run fails loudly (the function's error alarm) rather than
 * doing nothing quietly.
 */
import { ARCHIVE_ENV } from '../../contract/archive';
import { CONTACT_TIMEOUTS_MS } from '../../contract/limits';
import { MAILBOX_ADDRESS_PATTERN } from '../../contract/settings';
import type { MailSettings } from './delivery';
import { createDynamoClient, dynamoArchive, type ArchiveStore } from './store';

const TABLE_NAME = /^[A-Za-z0-9_.-]{3,255}$/;
const CONFIGURATION_SET_NAME = /^[A-Za-z0-9_-]{1,64}$/;

function required(env: NodeJS.ProcessEnv, name: string, pattern: RegExp, what: string): string {
  const value = env[name]?.trim();
  if (!value) throw new Error(`${name} is not set`);
  if (!pattern.test(value)) throw new Error(`${name} is not ${what}`);
  return value;
}

export function archiveFromEnv(env: NodeJS.ProcessEnv = process.env): ArchiveStore {
  const table = required(env, ARCHIVE_ENV.table, TABLE_NAME, 'a DynamoDB table name');
  // The SDK reads AWS_REGION and AWS_ENDPOINT_URL_DYNAMODB itself.
  return dynamoArchive({ table, client: createDynamoClient({ requestTimeoutMs: CONTACT_TIMEOUTS_MS.archive }) });
}

export function mailSettingsFromEnv(env: NodeJS.ProcessEnv = process.env): MailSettings {
  const configurationSet = env[ARCHIVE_ENV.configurationSet]?.trim();
  if (configurationSet && !CONFIGURATION_SET_NAME.test(configurationSet)) {
    throw new Error(`${ARCHIVE_ENV.configurationSet} is not an SES configuration set name`);
  }
  return {
    ownerEmail: required(env, 'OWNER_EMAIL', MAILBOX_ADDRESS_PATTERN, 'an email address'),
    senderEmail: required(env, 'SENDER_EMAIL', MAILBOX_ADDRESS_PATTERN, 'an email address'),
    ...(configurationSet ? { configurationSet } : {}),
  };
}
