/**
 * The local mailbox: aws-ses-v2-local, started in this process. It accepts SES SendEmail with any
 * dummy credentials, lists the mails as JSON at GET /store and shows them at /.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StoredMail {
  messageId: string;
  from: string;
  replyTo: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { text?: string; html?: string };
  at: number;
}

type StartSes = (config: { host: string; port: number }) => Promise<Server>;

export async function startMailbox(host: string, port: number): Promise<{ url: string; stop(): Promise<void> }> {
  // A CommonJS module with `exports.default`: Node's ESM import puts it under default.default.
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: StartSes | { default: StartSes } };
  const start = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const server = await start({ host, port });
  // Express reports a listen error to the same callback as success: check that it listens.
  if (!server.listening || server.address() === null) {
    server.close();
    throw new Error(`The mailbox could not listen on ${host}:${port}: is the port in use? Set SES_PORT to a free port.`);
  }
  const url = `http://${host}:${(server.address() as AddressInfo).port}`;
  // The store lives in the package's module, shared by every server in this process: start empty.
  await clearMailbox(url);
  return {
    url,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export async function clearMailbox(mailboxUrl: string): Promise<void> {
  const response = await fetch(`${mailboxUrl}/clear-store`, { method: 'POST' });
  if (!response.ok) throw new Error(`Clearing the mailbox answered ${response.status}`);
}

/** The mails the mailbox holds (GET /store). */
export async function fetchMails(mailboxUrl: string): Promise<StoredMail[]> {
  const response = await fetch(`${mailboxUrl}/store`);
  if (!response.ok) throw new Error(`GET ${mailboxUrl}/store answered ${response.status}`);
  return ((await response.json()) as { emails?: StoredMail[] }).emails ?? [];
}
