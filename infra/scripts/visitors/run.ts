/**
 * `npm run visitors`: page views and Core Web Vitals of the last N days. The deployed site's come
 * from CloudWatch Logs Insights (the dashboard's queries, on the log group the stack's
 * PageViewsLogGroup output names) with the owner's AWS credentials; `--local` reads the page views a
 * running or past `npm start` kept in .local/page-views.jsonl.
 */
import { existsSync, readFileSync } from 'node:fs';
import { CloudFormationClient } from '@aws-sdk/client-cloudformation';
import { ApiGatewayV2Client } from '@aws-sdk/client-apigatewayv2';
import { describeBreakers, readBreakers } from '../kit/breakers';
import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand, type ResultField } from '@aws-sdk/client-cloudwatch-logs';
import { checkVitalsBeacon, PAGE_VIEW_LOG_MESSAGE, VITALS_METRICS } from '../../../contract/vitals';
import { LOCALE_CODES } from '../../../web/content/locales';
import { loadConfigFromCdkJson, type PortfolioConfig } from '../../config/portfolio-config';
import { PAGE_VIEWS_BY_DAY_QUERY, VITALS_P75_QUERY } from '../../shared/page-view-queries';
import { DEFAULT_PAGE_VIEWS_FILE } from '../../shared/running-stack';
import { STACK_OUTPUT_KEYS } from '../../shared/stack-output-keys';
import { awsClient, explainAwsProblem } from '../kit/aws';
import { CommandError, EXIT, UsageError } from '../kit/command';
import { parseFlags } from '../kit/flags';
import { deployedApiId, stackOutputs } from '../kit/stack-outputs';
import { aggregate, formatReport, type DayRow, type KeptPageView, type VisitorsReport, type VitalsRow } from './report';

export const DEFAULT_DAYS = 7;
/** CloudWatch keeps the function's logs logRetentionDays (30 by default); a year is the most asked. */
export const MAX_DAYS = 365;

export const USAGE = `Usage: npm run visitors -- [options]

Page views per day and route, and the 75th percentile of LCP, INP, CLS, FCP and TTFB per route and
device class, rated by Google's Core Web Vitals thresholds.

Options:
  --days N         the last N days (default ${DEFAULT_DAYS}, at most ${MAX_DAYS}; the logs go back logRetentionDays)
  --stage NAME     a preview stage (as in npm run deploy -- --stage NAME)
  --local          what \`npm start\` recorded (.local/page-views.jsonl, or PAGE_VIEWS_FILE)
  --json           machine-readable output
  --help           this text`;

export interface VisitorsArgs {
  days: number;
  stage: string | undefined;
  local: boolean;
  json: boolean;
  help: boolean;
}

export function parseVisitorsArgs(argv: readonly string[]): VisitorsArgs {
  const { values } = parseFlags(argv, {
    days: { type: 'string' },
    stage: { type: 'string' },
    local: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  });
  const rawDays = typeof values.days === 'string' ? values.days : String(DEFAULT_DAYS);
  const stage = typeof values.stage === 'string' ? values.stage : undefined;
  const local = values.local === true;
  if (!/^\d+$/.test(rawDays) || Number(rawDays) < 1 || Number(rawDays) > MAX_DAYS) {
    throw new UsageError(`--days must be a whole number from 1 to ${MAX_DAYS}, got "${rawDays}"`);
  }
  if (local && stage !== undefined) throw new UsageError('--local reads what npm start recorded; it has no stage');
  if (stage !== undefined && !stage.trim()) throw new UsageError('--stage needs a name, e.g. --stage preview');
  return { days: Number(rawDays), stage, local, json: values.json === true, help: values.help === true };
}

export interface VisitorsDeps {
  stdout?: (text: string) => void;
  env?: NodeJS.ProcessEnv;
  now?: () => Date;
  /** The deploy configuration; default cdk.json's with the --stage override. */
  config?: PortfolioConfig;
  cloudFormation?: (region: string) => CloudFormationClient;
  apiGateway?: (region: string) => ApiGatewayV2Client;
  logs?: (region: string) => CloudWatchLogsClient;
  /** Waits between polls of a running query. */
  sleep?: (ms: number) => Promise<void>;
}

/** How often, and how long, a Logs Insights query is polled. */
export const QUERY_POLL_MS = 1_000;
export const QUERY_TIMEOUT_MS = 120_000;

/** The page views a local stack kept, within the last `days` (lines that do not parse are skipped). */
export function readLocalPageViews(file: string, days: number, now: Date): KeptPageView[] {
  if (!existsSync(file)) return [];
  const since = now.getTime() - days * 86_400_000;
  const kept: KeptPageView[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    let parsed: { message?: unknown; timestamp?: unknown; pageView?: unknown };
    try {
      parsed = JSON.parse(line) as typeof parsed;
    } catch {
      continue;
    }
    if (parsed.message !== PAGE_VIEW_LOG_MESSAGE || typeof parsed.timestamp !== 'string') continue;
    const at = Date.parse(parsed.timestamp);
    const checked = checkVitalsBeacon(parsed.pageView, LOCALE_CODES);
    if (!Number.isFinite(at) || at < since || !checked.ok) continue;
    kept.push({ timestamp: new Date(at).toISOString(), pageView: checked.beacon });
  }
  return kept;
}

type Row = Record<string, string>;

async function runQuery(
  client: CloudWatchLogsClient,
  logGroupName: string,
  queryString: string,
  range: { start: Date; end: Date },
  sleep: (ms: number) => Promise<void>,
): Promise<Row[]> {
  const { queryId } = await client.send(
    new StartQueryCommand({
      logGroupName,
      queryString,
      // StartQuery takes seconds since the epoch.
      startTime: Math.floor(range.start.getTime() / 1000),
      endTime: Math.ceil(range.end.getTime() / 1000),
      limit: 10_000,
    }),
  );
  if (!queryId) throw new CommandError('CloudWatch Logs started no query (no query id in its answer).');
  for (let waited = 0; waited <= QUERY_TIMEOUT_MS; waited += QUERY_POLL_MS) {
    const answer = await client.send(new GetQueryResultsCommand({ queryId }));
    if (answer.status === 'Complete') {
      return (answer.results ?? []).map((fields: ResultField[]) =>
        Object.fromEntries(fields.filter((f) => f.field && !f.field.startsWith('@')).map((f) => [f.field!, f.value ?? ''])),
      );
    }
    if (answer.status === 'Failed' || answer.status === 'Cancelled' || answer.status === 'Timeout') {
      throw new CommandError(`The Logs Insights query ended ${answer.status.toLowerCase()}.`);
    }
    await sleep(QUERY_POLL_MS);
  }
  throw new CommandError(`The Logs Insights query did not finish within ${QUERY_TIMEOUT_MS / 1000} s; try fewer --days.`);
}

const number = (text: string | undefined): number | undefined => {
  if (text === undefined || text.trim() === '') return undefined;
  const value = Number(text);
  return Number.isFinite(value) ? value : undefined;
};

function dayRows(rows: Row[]): DayRow[] {
  return rows.map((row) => ({ day: (row.day ?? '').slice(0, 10), route: row.route ?? '', views: number(row.views) ?? 0 }));
}

function vitalsRows(rows: Row[]): VitalsRow[] {
  return rows.map((row) => {
    const out: VitalsRow = { route: row.route ?? '', device: row.device ?? '', views: number(row.views) ?? 0 };
    for (const metric of VITALS_METRICS) {
      const value = number(row[`${metric}_p75`]);
      if (value !== undefined) out[metric] = value;
    }
    return out;
  });
}

async function deployedReport(args: VisitorsArgs, deps: VisitorsDeps, now: Date): Promise<VisitorsReport> {
  const config = deps.config ?? loadConfigFromCdkJson(undefined, args.stage !== undefined ? { stage: args.stage } : {});
  const cloudFormation = deps.cloudFormation ?? ((region) => awsClient(CloudFormationClient, { region }));
  const outputs = await stackOutputs(config.stackName, config.region, cloudFormation(config.region));
  const stageFlag = config.stage ? ` -- --stage ${config.stage}` : '';
  if (!outputs) {
    throw new CommandError(
      `Stack ${config.stackName} not found in ${config.region}: deploy it first (npm run deploy${stageFlag}), ` +
        'or check AWS_PROFILE and the region in cdk.json. For what `npm start` recorded: npm run visitors -- --local',
    );
  }
  const logGroup = outputs[STACK_OUTPUT_KEYS.pageViewsLogGroup];
  if (!logGroup) {
    throw new CommandError(
      `Stack ${config.stackName} in ${config.region} has no ${STACK_OUTPUT_KEYS.pageViewsLogGroup} output: it was deployed ` +
        `before page views were counted; deploy this version (npm run deploy${stageFlag}).`,
    );
  }
  const client = (deps.logs ?? ((region) => awsClient(CloudWatchLogsClient, { region })))(config.region);
  const sleep = deps.sleep ?? ((ms) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const range = { start: new Date(now.getTime() - args.days * 86_400_000), end: now };
  const apiId = await deployedApiId(config.stackName, config.region, cloudFormation(config.region));
  const apiGateway = deps.apiGateway ?? ((region) => awsClient(ApiGatewayV2Client, { region }));
  const [byDay, vitals, breakers] = await Promise.all([
    runQuery(client, logGroup, PAGE_VIEWS_BY_DAY_QUERY, range, sleep),
    runQuery(client, logGroup, VITALS_P75_QUERY, range, sleep),
    apiId ? readBreakers(apiGateway(config.region), apiId, now).then(describeBreakers) : undefined,
  ]);
  return {
    days: args.days,
    source: `stack ${config.stackName}, ${config.region}, log group ${logGroup}`,
    pageViewsByDay: dayRows(byDay),
    vitals: vitalsRows(vitals),
    ...(breakers ? { breakers } : {}),
  };
}

/**
 * Runs the command (kit/command.ts prints what it throws and picks the exit code). The table (or JSON
 * alone) goes to stdout.
 */
export async function visitorsCommand(argv: readonly string[], deps: VisitorsDeps = {}): Promise<number> {
  const stdout = deps.stdout ?? ((text: string) => console.log(text));
  const env = deps.env ?? process.env;
  const args = parseVisitorsArgs(argv);
  if (args.help) {
    stdout(USAGE);
    return EXIT.done;
  }
  const now = (deps.now ?? (() => new Date()))();
  let report: VisitorsReport;
  try {
    if (args.local) {
      const file = env.PAGE_VIEWS_FILE?.trim() || DEFAULT_PAGE_VIEWS_FILE;
      report = { days: args.days, source: `recorded by npm start in ${file}`, ...aggregate(readLocalPageViews(file, args.days, now)) };
    } else {
      report = await deployedReport(args, deps, now);
    }
  } catch (error) {
    if (error instanceof CommandError) throw error;
    const line = explainAwsProblem(error, {
      local: 'For what `npm start` recorded: npm run visitors -- --local',
      notFound: 'The page views log group does not exist yet: it appears with the first page view after a deploy.',
    });
    throw line === undefined ? error : new CommandError(line);
  }
  stdout(args.json ? JSON.stringify(report, null, 2) : formatReport(report));
  return EXIT.done;
}
