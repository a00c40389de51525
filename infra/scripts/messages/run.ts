/**
 * `npm run messages`: the owner's view of the message archive. The deployed archive is found
 * through the stack's ArchiveTableName output with the owner's AWS credentials; `--local` reads
 * the archive of a running `npm start` (dynalite) with dummy credentials.
 */
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LOCAL_ARCHIVE_PORT, LOCAL_ARCHIVE_TABLE, REDELIVERY_INTERVAL } from '../../../contract/archive';
import { loadConfigFromCdkJson, type PortfolioConfig } from '../../config/portfolio-config';
import { DEFAULT_ARCHIVE_DIR, readRunningStack } from '../../shared/running-stack';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { awsClient, type ClientOptions, errorName, explainAwsProblem } from '../kit/aws';
import { overridesOf } from '../kit/cdk';
import { CommandError, commandExitCode, EXIT, UsageError } from '../kit/command';
import { type FlagOptions, parseFlags } from '../kit/flags';
import { stackOutputs } from '../kit/stack-outputs';
import { type Archive, deleteMessage, getMessage, listMessages, resendFailed, resendMessage, UnknownMessageError } from './archive';
import { formatList, formatMessage, toJson } from './format';

export const USAGE = `Usage: npm run messages -- [command] [options]

Commands:
  (none), list     the archive, newest first: when, status, name, email, first line, id
  show ID          one message in full
  resend ID        back to pending (attempts kept): the redelivery sends it again
  resend --failed  every failed message back to pending
  delete ID        erase one message for good (a request for erasure)

Options:
  --local          the archive of a running \`npm start\`, wherever it listens (or ARCHIVE_PORT, or AWS_ENDPOINT_URL_DYNAMODB)
  --stage NAME     a preview stage's archive (as in npm run deploy -- --stage NAME)
  --json           machine-readable output (list: one JSON array)
  --help           this text`;

export type Command =
  | { kind: 'list' }
  | { kind: 'show'; id: string }
  | { kind: 'resend'; id: string }
  | { kind: 'resend-failed' }
  | { kind: 'delete'; id: string }
  | { kind: 'help' };

export interface MessagesArgs {
  command: Command;
  local: boolean;
  json: boolean;
  overrides: Record<string, unknown>;
  /** The flags naming this archive (` --local`, ` --stage pr-7`), which a printed hint must repeat. */
  scope?: string;
}

const FLAGS = {
  local: { type: 'boolean' },
  stage: { type: 'string' },
  json: { type: 'boolean' },
  failed: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  // Known only to be refused with a reason: it is the deploy's.
  trial: { type: 'boolean' },
} satisfies FlagOptions;

export function parseMessagesArgs(argv: readonly string[]): MessagesArgs {
  const { values, positionals: words } = parseFlags(argv, FLAGS, { positionals: true });
  if (values.trial) throw new UsageError('--trial is a deploy option; npm run messages does not take it');
  const local = values.local === true;
  const json = values.json === true;
  const failed = values.failed === true;
  const stage = values.stage as string | undefined;
  if (local && stage !== undefined) throw new UsageError('--local reads the archive of npm start; it has no stage');
  const scope = local ? ' --local' : stage !== undefined ? ` --stage ${stage}` : '';
  const base = { local, json, scope, overrides: overridesOf({ stage, trial: false }) };
  if (values.help) return { ...base, command: { kind: 'help' } };
  const [name = 'list', id, ...extra] = words;
  if (extra.length > 0) throw new UsageError(`unexpected ${extra.join(' ')}`);
  const needsId = (kind: 'show' | 'resend' | 'delete'): string => {
    if (!id) throw new UsageError(`${kind} needs a message id (npm run messages lists them)`);
    return id;
  };
  if (failed && name !== 'resend') throw new UsageError('--failed goes with resend');
  switch (name) {
    case 'list':
      if (id) throw new UsageError(`unexpected ${id}`);
      return { ...base, command: { kind: 'list' } };
    case 'show':
    case 'delete':
      return { ...base, command: { kind: name, id: needsId(name) } };
    case 'resend':
      if (failed) {
        if (id) throw new UsageError('resend takes an id or --failed, not both');
        return { ...base, command: { kind: 'resend-failed' } };
      }
      return { ...base, command: { kind: 'resend', id: needsId('resend') } };
    default:
      throw new UsageError(`unknown command ${name}`);
  }
}

export interface MessagesDeps {
  stdout?: (text: string) => void;
  stderr?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  /** The deploy configuration; default cdk.json's with the --stage override. */
  config?: PortfolioConfig;
  cloudFormation?: (region: string) => CloudFormationClient;
  dynamoDb?: (config: ClientOptions) => DynamoDBClient;
}

interface Target {
  archive: Archive;
  /** Where the messages come from, for the output ("the archive of stack Portfolio (eu-west-1)"). */
  source: string;
  local: boolean;
  endpoint?: string;
}

/**
 * The local archive's address: AWS_ENDPOINT_URL_DYNAMODB, else 127.0.0.1:ARCHIVE_PORT, else the one
 * the running stack wrote beside its data folder (ARCHIVE_DIR, default .local/archive), else port 8006.
 */
export function localEndpoint(env: NodeJS.ProcessEnv): string {
  const outside = env.AWS_ENDPOINT_URL_DYNAMODB?.trim();
  if (outside) return outside;
  const running = env.ARCHIVE_PORT?.trim() ? undefined : readRunningStack(env.ARCHIVE_DIR?.trim() || DEFAULT_ARCHIVE_DIR)?.archive;
  if (running) return running;
  const port = env.ARCHIVE_PORT?.trim() || String(LOCAL_ARCHIVE_PORT);
  if (!/^\d{1,5}$/.test(port) || Number(port) < 1 || Number(port) > 65535) {
    throw new CommandError(`ARCHIVE_PORT=${JSON.stringify(env.ARCHIVE_PORT)} is not a port number (1-65535).`);
  }
  return `http://127.0.0.1:${port}`;
}

function documentClient(client: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
}

async function resolveTarget(
  args: MessagesArgs,
  deps: Required<Pick<MessagesDeps, 'env' | 'cloudFormation' | 'dynamoDb'>> & MessagesDeps,
): Promise<Target> {
  if (args.local) {
    const endpoint = localEndpoint(deps.env);
    const client = deps.dynamoDb({
      endpoint,
      region: deps.env.AWS_REGION?.trim() || 'us-east-1',
      // The local server accepts any key; these keep the SDK from looking for the owner's.
      credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    });
    return {
      archive: { doc: documentClient(client), table: LOCAL_ARCHIVE_TABLE },
      source: `the local archive at ${endpoint} (table ${LOCAL_ARCHIVE_TABLE})`,
      local: true,
      endpoint,
    };
  }
  const config = deps.config ?? loadConfigFromCdkJson(undefined, args.overrides);
  const outputs = await stackOutputs(config.stackName, config.region, deps.cloudFormation(config.region));
  const stageFlag = config.stage ? ` -- --stage ${config.stage}` : '';
  if (!outputs) {
    throw new CommandError(
      `Stack ${config.stackName} not found in ${config.region}: deploy it first (npm run deploy${stageFlag}), ` +
        'or check AWS_PROFILE and the region in cdk.json. For the archive of `npm start`: npm run messages -- --local',
    );
  }
  const table = outputs[STACK_OUTPUT_KEYS.archiveTable];
  if (!table) {
    throw new CommandError(
      `Stack ${config.stackName} in ${config.region} has no ${STACK_OUTPUT_KEYS.archiveTable} output: it was deployed ` +
        `before the message archive existed; deploy this version (npm run deploy${stageFlag}).`,
    );
  }
  const client = deps.dynamoDb({ region: config.region });
  return {
    archive: { doc: documentClient(client), table },
    source: `the archive of stack ${config.stackName} (${config.region}, table ${table})`,
    local: false,
  };
}

/** The local server is not there (nothing listening, or the host unknown). */
function isUnreachable(error: unknown): boolean {
  const e = error as { code?: string; message?: string; cause?: { code?: string }; errors?: { code?: string }[] };
  const codes = [e?.code, e?.cause?.code, ...(e?.errors ?? []).map((inner) => inner?.code)];
  return (
    codes.some((code) => code === 'ECONNREFUSED' || code === 'ENOTFOUND' || code === 'ECONNRESET' || code === 'EHOSTUNREACH') ||
    /ECONNREFUSED|ENOTFOUND|socket hang up/.test(String(e?.message))
  );
}

/** One line for an error the owner can act on; undefined for an unexpected one. */
function explain(error: unknown, target: Target | undefined, args: MessagesArgs): string | undefined {
  if (error instanceof UnknownMessageError) return error.message;
  if (args.local) {
    const where = target?.endpoint ?? 'the local archive';
    if (isUnreachable(error)) return `The local archive at ${where} is not reachable: is \`npm start\` running?`;
    if (errorName(error) === 'ResourceNotFoundException') {
      return `The local archive at ${where} has no table ${LOCAL_ARCHIVE_TABLE}: is \`npm start\` running (it creates the table)?`;
    }
    return undefined;
  }
  return explainAwsProblem(error, {
    local: 'For the archive of `npm start`: npm run messages -- --local',
    notFound: target
      ? `The table ${target.archive.table} named by the stack's output does not exist any more: deploy again (npm run deploy).`
      : undefined,
  });
}

/**
 * Runs one command; returns the exit code (kit/command.ts: 0 done, 1 failed, 2 usage). Output goes to
 * stdout (JSON alone with --json), problems to stderr.
 */
export function runMessages(argv: readonly string[], deps: MessagesDeps = {}): Promise<number> {
  const stderr = deps.stderr ?? ((text: string) => console.error(text));
  return commandExitCode({ name: 'messages', usage: USAGE, run: (args) => messagesCommand(args, deps) }, argv, stderr);
}

/** The command itself: throws a UsageError or a CommandError (one line the owner can act on). */
export async function messagesCommand(argv: readonly string[], deps: MessagesDeps = {}): Promise<number> {
  const stdout = deps.stdout ?? ((text: string) => console.log(text));
  const env = deps.env ?? process.env;
  const args = parseMessagesArgs(argv);
  if (args.command.kind === 'help') {
    stdout(USAGE);
    return EXIT.done;
  }
  let target: Target | undefined;
  try {
    target = await resolveTarget(args, {
      ...deps,
      env,
      cloudFormation: deps.cloudFormation ?? ((region) => awsClient(CloudFormationClient, { region })),
      dynamoDb: deps.dynamoDb ?? ((config) => awsClient(DynamoDBClient, config)),
    });
    await execute(args, target, stdout);
    return EXIT.done;
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const line = explain(error, target, args);
    throw line === undefined ? error : new CommandError(line);
  }
}

async function execute(args: MessagesArgs, target: Target, stdout: (text: string) => void): Promise<void> {
  const { archive } = target;
  const within = target.local
    ? `within ${REDELIVERY_INTERVAL.localMs / 1000} seconds while \`npm start\` runs`
    : `within ${REDELIVERY_INTERVAL.awsMinutes} minutes`;
  const command = args.command;
  switch (command.kind) {
    case 'list': {
      const messages = await listMessages(archive);
      stdout(args.json ? JSON.stringify(messages.map(toJson), null, 2) : formatList(messages, target.source, args.scope));
      return;
    }
    case 'show': {
      const message = await getMessage(archive, command.id);
      stdout(args.json ? JSON.stringify(toJson(message), null, 2) : formatMessage(message));
      return;
    }
    case 'resend': {
      const before = await getMessage(archive, command.id);
      const previous = await resendMessage(archive, command.id);
      if (args.json) {
        stdout(JSON.stringify({ resent: [command.id], previousStatus: previous }, null, 2));
      } else if (previous === 'pending') {
        stdout(`Message ${command.id} is pending already: the redelivery sends it ${within}.`);
      } else {
        stdout(
          `Message ${command.id} is pending again (was ${previous}, ${before.attempts} attempt${before.attempts === 1 ? '' : 's'} ` +
            `so far): the redelivery sends it ${within}.`,
        );
      }
      return;
    }
    case 'resend-failed': {
      const ids = await resendFailed(archive);
      if (args.json) stdout(JSON.stringify({ resent: ids }, null, 2));
      else if (ids.length === 0) stdout(`No failed messages in ${target.source}.`);
      else {
        const count = `${ids.length} failed message${ids.length === 1 ? ' is' : 's are'}`;
        stdout(`${count} pending again: the redelivery sends them ${within}.\n${ids.map((id) => `  ${id}`).join('\n')}`);
      }
      return;
    }
    case 'delete': {
      await deleteMessage(archive, command.id);
      if (args.json) stdout(JSON.stringify({ deleted: command.id }, null, 2));
      else {
        stdout(
          `Deleted message ${command.id} from ${target.source}.` +
            (target.local ? '' : ' Point-in-time recovery keeps restorable copies of the table for up to 35 days.'),
        );
      }
      return;
    }
  }
}
