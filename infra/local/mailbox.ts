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

export interface Mailbox {
  url: string;
  port: number;
  stop(): Promise<void>;
}

type StartSes = (config?: { host?: string; port?: number }) => Promise<Server>;

async function loadServer(): Promise<StartSes> {
  // A CommonJS module with `exports.default`: Node's ESM import puts it under default.default.
  const mod = (await import('aws-ses-v2-local')) as unknown as { default: StartSes | { default: StartSes } };
  const start = typeof mod.default === 'function' ? mod.default : mod.default.default;
  if (typeof start !== 'function') throw new Error('aws-ses-v2-local exports no server function');
  return start;
}

export async function startMailbox(host: string, port: number): Promise<Mailbox> {
  const start = await loadServer();
  const server = await start({ host, port });
  // Express reports a listen error to the same callback as success: check that it listens.
  if (!server.listening || server.address() === null) {
    server.close();
    throw new Error(`The mailbox could not listen on ${host}:${port}: is the port in use? Set SES_PORT to a free port.`);
  }
  const actualPort = (server.address() as AddressInfo).port;
  const url = `http://${host}:${actualPort}`;
  // The store lives in the package's module, shared by every server in this process: start empty.
  await fetch(`${url}/clear-store`, { method: 'POST' });
  return {
    url,
    port: actualPort,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The mails the mailbox holds (GET /store). */
export async function fetchMails(mailboxUrl: string): Promise<StoredMail[]> {
  const response = await fetch(`${mailboxUrl}/store`);
  if (!response.ok) throw new Error(`GET ${mailboxUrl}/store answered ${response.status}`);
  const data = (await response.json()) as { emails?: StoredMail[] };
  return data.emails ?? [];
}
