/**
 * `npm run visitors`: against CloudFormation and CloudWatch Logs faked at their boundary
 * (aws-sdk-client-mock), and against the page views a real local stack recorded.
 */
import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CloudFormationClient, DescribeStacksCommand, ListStackResourcesCommand } from '@aws-sdk/client-cloudformation';
import { CloudWatchLogsClient, GetQueryResultsCommand, StartQueryCommand } from '@aws-sdk/client-cloudwatch-logs';
import { mockAwsClient } from '../../../tools/aws-client-mock';
import { beforeEach, describe, expect, it } from 'vitest';
import { parseConfig } from '../../config/portfolio-config';
import { startLocalStack } from '../../local/stack';
import { fixtureBuild } from '../../local/test-support';
import { PAGE_VIEWS_BY_DAY_QUERY, VITALS_P75_QUERY } from '../../shared/page-view-queries';
import { aggregate, percentile } from './report';
import { commandExitCode, UsageError } from '../kit/command';
import { parseVisitorsArgs, USAGE, visitorsCommand, type VisitorsDeps } from './run';
import { scratchDir } from '../../../tools/scratch';

const LOG_GROUP = 'Portfolio-FunctionsVitalsLogs1234-ABCDEF';
const NOW = new Date('2026-11-28T12:00:00.000Z');
const config = parseConfig({
  stackName: 'Portfolio',
  region: 'eu-west-1',
  ownerEmail: 'me@owner-mail.dev',
  senderEmail: 'portfolio@jane.dev',
  recaptchaSecretParameter: '/portfolio/recaptcha-secret',
  recaptchaSiteKey: 'a-real-looking-site-key-0123456789',
});

const cfn = mockAwsClient(CloudFormationClient);
const cwl = mockAwsClient(CloudWatchLogsClient);

const stackWith = (outputs: Record<string, string>) => ({
  Stacks: [
    {
      StackName: 'Portfolio',
      CreationTime: new Date(),
      StackStatus: 'UPDATE_COMPLETE' as const,
      Outputs: Object.entries(outputs).map(([OutputKey, OutputValue]) => ({ OutputKey, OutputValue })),
    },
  ],
});
const fields = (row: Record<string, string>) => Object.entries(row).map(([field, value]) => ({ field, value }));

function run(argv: string[], extra: VisitorsDeps = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const deps: VisitorsDeps = {
    stdout: (t) => out.push(t),
    env: {},
    now: () => NOW,
    config,
    cloudFormation: () => new CloudFormationClient({ region: 'eu-west-1' }),
    logs: () => new CloudWatchLogsClient({ region: 'eu-west-1' }),
    sleep: () => Promise.resolve(),
    ...extra,
  };
  const spec = { name: 'visitors', usage: USAGE, run: (args: readonly string[]) => visitorsCommand(args, deps) };
  return commandExitCode(spec, argv, (t) => err.push(t)).then((code) => ({ code, out: out.join('\n'), err: err.join('\n') }));
}

describe('parseVisitorsArgs (node:util parseArgs)', () => {
  it('defaults to 7 days on the live stack, as a table', () => {
    expect(parseVisitorsArgs([])).toEqual({ days: 7, stage: undefined, local: false, json: false, help: false });
    expect(parseVisitorsArgs(['--days', '30', '--stage', 'pr-12', '--json'])).toMatchObject({ days: 30, stage: 'pr-12', json: true });
    expect(parseVisitorsArgs(['--days=2', '--local'])).toMatchObject({ days: 2, local: true });
  });

  it.each([['--days', '0'], ['--days', '366'], ['--days', 'week'], ['--bogus'], ['extra'], ['--local', '--stage', 'x'], ['--stage']])(
    'refuses %j',
    (...argv) => {
      expect(() => parseVisitorsArgs(argv)).toThrow(UsageError);
    },
  );
});

describe('npm run visitors against the deployed stack (faked AWS)', () => {
  beforeEach(() => {
    cfn.reset();
    cwl.reset();
    cfn.on(DescribeStacksCommand).resolves(stackWith({ PageViewsLogGroup: LOG_GROUP }));
    // No API among the resources: no breakers line (breakers.test.ts has one).
    cfn.on(ListStackResourcesCommand).resolves({ StackResourceSummaries: [] });
    cwl.on(StartQueryCommand, { queryString: PAGE_VIEWS_BY_DAY_QUERY }).resolves({ queryId: 'q-days' });
    cwl.on(StartQueryCommand, { queryString: VITALS_P75_QUERY }).resolves({ queryId: 'q-vitals' });
    cwl
      .on(GetQueryResultsCommand, { queryId: 'q-days' })
      .resolvesOnce({ status: 'Running', results: [] })
      .resolves({
        status: 'Complete',
        results: [
          fields({ day: '2026-11-28 00:00:00.000', route: '/home', views: '40' }),
          fields({ day: '2026-11-27 00:00:00.000', route: '/projects/:projectId', views: '12' }),
        ],
      });
    cwl.on(GetQueryResultsCommand, { queryId: 'q-vitals' }).resolves({
      status: 'Complete',
      results: [
        fields({
          route: '/home',
          device: 'phone',
          views: '30',
          lcp_p75: '4312',
          inp_p75: '180',
          cls_p75: '0.02',
          fcp_p75: '1200',
          ttfb_p75: '300',
        }),
        fields({
          route: '/projects/:projectId',
          device: 'desktop',
          views: '12',
          lcp_p75: '1100',
          cls_p75: '0.3',
          ttfb_p75: '90',
          '@ptr': 'x',
        }),
      ],
    });
  });

  it("runs the dashboard queries over the last N days on the stack's log group and prints both tables", async () => {
    const { code, out, err } = await run(['--days', '3']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const starts = cwl.commandCalls(StartQueryCommand).map((call) => call.args[0].input);
    expect(starts).toHaveLength(2);
    for (const input of starts) {
      expect(input).toMatchObject({ logGroupName: LOG_GROUP, endTime: NOW.getTime() / 1000, startTime: NOW.getTime() / 1000 - 3 * 86_400 });
    }
    expect(out).toContain('Page views in the last 3 days: 52 (stack Portfolio, eu-west-1, log group');
    expect(out).toMatch(/2026-11-28\s+\/home\s+40/);
    expect(out).toMatch(/\/home\s+phone\s+30\s+4\.3 s !\s+180 ms\s+0\.02\s+1\.2 s\s+300 ms/);
    expect(out).toMatch(/\/projects\/:projectId\s+desktop\s+12\s+1\.1 s\s+–\s+0\.30 !/);
  });

  it('prints the same as JSON with --json, and nothing else on stdout', async () => {
    const { code, out } = await run(['--json']);
    expect(code).toBe(0);
    const report = JSON.parse(out);
    expect(report).toMatchObject({
      days: 7,
      pageViewsByDay: [
        { day: '2026-11-28', route: '/home', views: 40 },
        { day: '2026-11-27', route: '/projects/:projectId', views: 12 },
      ],
      vitals: [
        { route: '/home', device: 'phone', views: 30, lcp: 4312, inp: 180, cls: 0.02, fcp: 1200, ttfb: 300 },
        { route: '/projects/:projectId', device: 'desktop', views: 12, lcp: 1100, cls: 0.3, ttfb: 90 },
      ],
    });
    expect(report.vitals[1]).not.toHaveProperty('inp');
  });

  it('names the fix when the stack is missing, predates page views, or a query fails', async () => {
    cfn.on(DescribeStacksCommand).rejects(Object.assign(new Error('Stack with id Portfolio does not exist'), { name: 'ValidationError' }));
    let result = await run([]);
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/Stack Portfolio not found in eu-west-1: deploy it first.*--local/);

    cfn.on(DescribeStacksCommand).resolves(stackWith({ ArchiveTableName: 't' }));
    result = await run([]);
    expect(result.err).toMatch(/no PageViewsLogGroup output: it was deployed before page views were counted/);

    cfn.on(DescribeStacksCommand).resolves(stackWith({ PageViewsLogGroup: LOG_GROUP }));
    cwl.on(GetQueryResultsCommand, { queryId: 'q-vitals' }).resolves({ status: 'Failed' });
    result = await run([]);
    expect(result.code).toBe(1);
    expect(result.err).toBe('✗ The Logs Insights query ended failed.');

    cwl.on(StartQueryCommand).rejects(Object.assign(new Error('no'), { name: 'CredentialsProviderError' }));
    result = await run([]);
    expect(result.err).toMatch(/No AWS credentials found/);
  });

  it('prints the usage for --help, and with exit 2 for a bad option', async () => {
    expect(await run(['--help'])).toMatchObject({ code: 0, out: expect.stringContaining('--days N') });
    const bad = await run(['--days', 'x']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('--days must be a whole number');
    expect(bad.err).toContain('Usage: npm run visitors');
  });
});

describe('npm run visitors -- --local (what npm start recorded)', () => {
  const fixture = fixtureBuild();
  const file = path.join(scratchDir('portfolio-visitors-'), 'page-views.jsonl');

  it('reads the page views a local stack kept, within the last N days', async () => {
    const stack = await startLocalStack({
      port: 0,
      sesPort: 0,
      clientDir: fixture.clientDir,
      quiet: true,
      archive: false,
      pageViewsFile: file,
    });
    try {
      const post = (body: unknown) =>
        fetch(`${stack.url}/api/vitals`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      for (const [lcp, inp] of [
        [1000, 50],
        [2000, 100],
        [3000, 300],
        [5000, 700],
      ] as const) {
        expect((await post({ route: '/home', lang: 'en', device: 'phone', nav: 'load', lcp, inp, cls: 0.01 })).status).toBe(204);
      }
      expect((await post({ route: '/about', lang: 'es', device: 'desktop', nav: 'client' })).status).toBe(204);
      expect((await post({ route: '/about?x=1', lang: 'es', device: 'desktop', nav: 'client' })).status).toBe(400);
    } finally {
      await stack.stop();
    }
    // A page view from long ago and a broken line: neither counts.
    writeFileSync(
      file,
      `${JSON.stringify({ message: 'Page view', timestamp: '2020-01-01T00:00:00.000Z', pageView: { route: '/home', lang: 'en', device: 'phone', nav: 'load' } })}\nnot json\n`,
      { flag: 'a' },
    );

    const { code, out, err } = await run(['--local', '--json', '--days', '1'], { env: { PAGE_VIEWS_FILE: file }, now: () => new Date() });
    expect(err).toBe('');
    expect(code).toBe(0);
    const report = JSON.parse(out);
    const today = new Date().toISOString().slice(0, 10);
    expect(report.pageViewsByDay).toEqual([
      { day: today, route: '/home', views: 4 },
      { day: today, route: '/about', views: 1 },
    ]);
    expect(report.vitals).toEqual([
      { route: '/home', device: 'phone', views: 4, lcp: 3000, inp: 300, cls: 0.01 },
      { route: '/about', device: 'desktop', views: 1 },
    ]);

    const table = await run(['--local'], { env: { PAGE_VIEWS_FILE: file }, now: () => new Date() });
    expect(table.out).toContain('Page views in the last 7 days: 5 (recorded by npm start in');
    expect(table.out).toMatch(/\/home\s+phone\s+4\s+3\.0 s ~\s+300 ms ~\s+0\.01/);
  });

  it('says so when nothing was recorded', async () => {
    const { code, out } = await run(['--local'], { env: { PAGE_VIEWS_FILE: path.join(tmpdir(), 'nothing-here.jsonl') } });
    expect(code).toBe(0);
    expect(out).toBe('No page views in the last 7 days (recorded by npm start in ' + path.join(tmpdir(), 'nothing-here.jsonl') + ').');
  });
});

describe('aggregate and percentile', () => {
  it('takes the nearest-rank 75th percentile, as Google does for the field', () => {
    expect(percentile([], 75)).toBeUndefined();
    expect(percentile([5], 75)).toBe(5);
    expect(percentile([4, 1, 3, 2], 75)).toBe(3);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8], 75)).toBe(6);
  });

  it('groups by day and route, and by route and device', () => {
    const view = (timestamp: string, device: 'phone' | 'desktop', lcp?: number) => ({
      timestamp,
      pageView: { route: '/home' as const, lang: 'en', device, nav: 'load' as const, ...(lcp ? { lcp } : {}) },
    });
    const rows = aggregate([
      view('2026-11-27T10:00:00Z', 'phone', 100),
      view('2026-11-28T10:00:00Z', 'phone'),
      view('2026-11-28T11:00:00Z', 'desktop', 50),
    ]);
    expect(rows.pageViewsByDay).toEqual([
      { day: '2026-11-28', route: '/home', views: 2 },
      { day: '2026-11-27', route: '/home', views: 1 },
    ]);
    expect(rows.vitals).toEqual([
      { route: '/home', device: 'phone', views: 2, lcp: 100 },
      { route: '/home', device: 'desktop', views: 1, lcp: 50 },
    ]);
  });
});
