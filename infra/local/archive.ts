/**
 * The local message archive: dynalite (a DynamoDB-compatible server) with its data on disk, or an
 * outside server named by AWS_ENDPOINT_URL_DYNAMODB; either way the table (with its status index)
 * is created when missing. dynalite does not do time-to-live (UpdateTimeToLive is unknown to it),
 * so nothing expires locally; the functions still write `expiresAt`.
 */
import { CreateTableCommand, DescribeTableCommand, ResourceNotFoundException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import dynalite from 'dynalite';
import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { archiveTableDefinition, LOCAL_ARCHIVE_TABLE } from '../../contract/archive';
import { createDynamoClient, dynamoArchive, type ArchiveStore } from '../../functions/archive/store';
import { claimDataDir } from '../shared/running-stack';

/** Any credentials do for dynalite and the SES emulator; never used against AWS. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };
export const LOCAL_REGION = 'us-east-1';

export interface LocalArchive {
  /** The DynamoDB endpoint, e.g. http://127.0.0.1:8006. */
  url: string;
  /** Where dynalite keeps its data; undefined in memory or for an outside server. */
  dataDir: string | undefined;
  table: string;
  store: ArchiveStore;
  client: DynamoDBClient;
  stop(): Promise<void>;
}

export interface LocalArchiveOptions {
  host: string;
  port: number;
  /** On-disk data folder; in memory when absent (tests). */
  dataDir?: string | undefined;
  /** An outside DynamoDB-compatible server: used instead of starting dynalite. */
  endpoint?: string | undefined;
  table?: string;
}

export async function startLocalArchive(options: LocalArchiveOptions): Promise<LocalArchive> {
  let server: Server | undefined;
  let url = options.endpoint?.replace(/\/+$/, '');
  // One stack per data folder: a second gets one line naming the first (infra/shared/running-stack.ts).
  const claim = !url && options.dataDir ? claimDataDir(options.dataDir) : undefined;
  if (!url) {
    if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
    server = dynalite({ ...(options.dataDir ? { path: options.dataDir } : {}), createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
    server.listen(options.port, options.host);
    await once(server, 'listening').catch((error: NodeJS.ErrnoException) => {
      claim?.release();
      throw error.code === 'EADDRINUSE'
        ? new Error(`The archive could not listen on ${options.host}:${options.port}: set ARCHIVE_PORT to a free port.`)
        : error;
    });
    url = `http://${options.host}:${(server.address() as AddressInfo).port}`;
    claim?.record({ archive: url });
  }
  const table = options.table ?? LOCAL_ARCHIVE_TABLE;
  const client = createDynamoClient({ endpoint: url, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS, requestTimeoutMs: 5_000 });
  const stopServer = () =>
    server ? new Promise<void>((resolve) => server!.close(() => resolve())).then(() => undefined) : Promise.resolve();
  try {
    await ensureTable(client, table);
  } catch (error) {
    client.destroy();
    await stopServer();
    claim?.release();
    throw new Error(`The archive at ${url} could not be set up: ${(error as Error).message}`);
  }
  return {
    url,
    dataDir: server ? options.dataDir : undefined,
    table,
    store: dynamoArchive({ table, client }),
    client,
    async stop() {
      client.destroy();
      server?.closeAllConnections();
      await stopServer();
      claim?.release();
    },
  };
}

/** Creates the table and its status index when missing, and waits until it is active. */
export async function ensureTable(client: DynamoDBClient, table: string): Promise<void> {
  const status = async () => {
    try {
      return (await client.send(new DescribeTableCommand({ TableName: table }))).Table?.TableStatus;
    } catch (error) {
      if (error instanceof ResourceNotFoundException || (error as Error).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  };
  if ((await status()) === undefined) {
    await client.send(new CreateTableCommand(archiveTableDefinition(table)));
  }
  for (let i = 0; i < 100 && (await status()) !== 'ACTIVE'; i++) await new Promise((resolve) => setTimeout(resolve, 100));
}
