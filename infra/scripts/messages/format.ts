/** How `npm run messages` prints the archive: a table for people, JSON for scripts. */
import type { ReadMessage } from './archive';

/** A message as `--json` prints it: times in ISO 8601, optional fields only when present. */
export type MessageJson = Omit<ReadMessage, 'expiresAt'> & { expiresAt: string | null };

/** ISO 8601 of epoch seconds, or null when absent or out of Date's range. */
export function isoFromEpochSeconds(seconds: number | undefined): string | null {
  if (seconds === undefined) return null;
  const date = new Date(seconds * 1000);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The stored receivedAt normalized to ISO 8601 UTC (left as stored when it is not a date). */
function isoReceivedAt(value: string): string {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
}

export function toJson(message: ReadMessage): MessageJson {
  const json: MessageJson = {
    id: message.id,
    receivedAt: isoReceivedAt(message.receivedAt),
    name: message.name,
    email: message.email,
    message: message.message,
    status: message.status,
    attempts: message.attempts,
    expiresAt: isoFromEpochSeconds(message.expiresAt),
  };
  for (const key of ['language', 'lastError', 'sesMessageId'] as const) if (message[key]) json[key] = message[key];
  return json;
}

/**
 * Visitor text made safe for a terminal: control characters (escape sequences could rewrite the
 * owner's screen or title) become spaces, or U+FFFD for ESC itself.
 */
export function terminalSafe(value: string): string {
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is replaced
  return value.replace(/\x1b/g, '\uFFFD').replace(/[\x00-\x1f\x7f-\x9f\u2028\u2029]/g, ' ');
}

/** The message's first non-blank line, shortened to `width` characters. */
export function firstLine(text: string, width: number): string {
  const line = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  return shorten(terminalSafe(line.trim()), width);
}

function shorten(value: string, width: number): string {
  const chars = [...value];
  return chars.length <= width ? value : `${chars.slice(0, Math.max(0, width - 1)).join('')}…`;
}

/** "2026-11-25 20:31 UTC" from an ISO time (as stored, when not a date). */
export function when(receivedAt: string): string {
  const date = new Date(receivedAt);
  if (!receivedAt || Number.isNaN(date.getTime())) return terminalSafe(receivedAt);
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The list, newest first as given: when, status, name, email, first line, and the id the other commands
 * take. `scope`: the flags that named this archive (` --local`), kept in the hint so it reads the same one.
 */
export function formatList(messages: readonly ReadMessage[], source: string, scope = ''): string {
  if (messages.length === 0) return `No messages in ${source}.`;
  const rows = messages.map((m) => [
    when(m.receivedAt),
    terminalSafe(m.status),
    shorten(terminalSafe(m.name), 24),
    shorten(terminalSafe(m.email), 32),
    firstLine(m.message, 60),
    terminalSafe(m.id),
  ]);
  const header = ['WHEN', 'STATUS', 'NAME', 'EMAIL', 'MESSAGE', 'ID'];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => [...r[i]!].length)));
  const line = (cells: string[]) =>
    cells.map((cell, i) => (i === cells.length - 1 ? cell : cell + ' '.repeat(widths[i]! - [...cell].length))).join('  ');
  const count = `${messages.length} message${messages.length === 1 ? '' : 's'}`;
  return [
    `${count} in ${source}, newest first (\`npm run messages --${scope} show ID\` prints one in full):`,
    line(header),
    ...rows.map(line),
  ].join('\n');
}

/** One message in full, for `show ID`. */
export function formatMessage(message: ReadMessage): string {
  const json = toJson(message);
  const fields: [string, string | number | null | undefined][] = [
    ['id', json.id],
    ['received', when(message.receivedAt)],
    ['status', json.status],
    ['attempts', json.attempts],
    ['last error', json.lastError],
    ['SES message id', json.sesMessageId],
    ['language', json.language],
    ['name', json.name],
    ['email', json.email],
    ['expires', json.expiresAt ? when(json.expiresAt) : undefined],
  ];
  const shown = fields.filter(([, value]) => value !== undefined && value !== null && value !== '');
  const width = Math.max(...shown.map(([label]) => label.length));
  const head = shown.map(([label, value]) => `${label.padEnd(width)}  ${terminalSafe(String(value))}`);
  // The message keeps its lines; each is made terminal-safe on its own.
  const body = message.message.split(/\r\n|\r|\n/).map((l) => `  ${terminalSafe(l)}`);
  return [...head, 'message:', ...body].join('\n');
}
