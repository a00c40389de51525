/**
 * `npm run setup`: runs every step in the doctor's order, then (when nothing waits) the doctor itself,
 * and ends with the next command or the list of what is pending and who must act. Exit 0: ready to
 * deploy; 1: an error (one line naming the value and the fix); 2: waiting on a person or AWS. With
 * --wait MINUTES the steps run again every 30 s until nothing waits or the time is up. A wrong flag
 * exits 1 too (2 already means waiting).
 */

import { IAMClient } from '@aws-sdk/client-iam';
import { S3Client } from '@aws-sdk/client-s3';
import { SNSClient } from '@aws-sdk/client-sns';
import { ConfigError, loadConfigFromCdkJson } from '../../config/portfolio-config';
import { awsClients, runDoctor } from '../doctor/run';
import { awsClient } from '../kit/aws';
import { runCdk } from '../kit/cdk';
import { cdkJsonFile } from './cdk-json';
import { parseSetupArgs, SetupContext, SetupError, type SetupClients, type SetupDeps, type StepResult } from './context';
import { Cancelled, terminalPrompter } from './prompter';
import { STEPS } from './steps';
import type { Step } from './steps/step';

export const USAGE =
  'Usage: npm run setup [-- --yes] [-- --json] [-- --wait MINUTES] … (docs/deploy.md, "Set up the account", lists every flag)';

export const POLL_MS = 30_000;

/** The doctor's clients (the two must read the account alike), plus SNS for the alarm subscription, IAM and S3 for the bootstrap. */
export function awsSetupClients(region: string): SetupClients {
  return {
    ...awsClients(region),
    sns: awsClient(SNSClient, { region }),
    iam: awsClient(IAMClient, { region }),
    s3: (r) => awsClient(S3Client, { region: r }),
  };
}

const MARK: Record<StepResult['outcome'], string> = { ready: '✓', changed: '✓', waiting: '…', skipped: '–', error: '✗' };

async function runSteps(ctx: SetupContext, steps: Step[]): Promise<StepResult[]> {
  const results: StepResult[] = [];
  for (const step of steps) {
    try {
      const stepResults = await step.run(ctx);
      for (const r of stepResults) {
        results.push(r);
        ctx.print(`${MARK[r.outcome]} ${r.step}: ${r.detail}${r.waitingOn ? `\n    waiting on ${r.waitingOn}` : ''}`);
      }
    } catch (error) {
      if (!(error instanceof SetupError || error instanceof Cancelled)) throw error;
      results.push({ step: step.id, outcome: 'error', detail: error.message });
      return results;
    }
  }
  return results;
}

export interface SetupRun {
  argv: string[];
  env: Record<string, string | undefined>;
  tty: boolean;
  deps: Omit<SetupDeps, 'print'> & { print?: (line: string) => void; out?: (text: string) => void };
  steps?: Step[];
  /** The doctor at the end (tests replace it); returns its exit code. */
  doctor?: (ctx: SetupContext) => Promise<number>;
}

/** "waiting since 2026-11-26 09:00 UTC (3 h)", or why the date is unknown. */
export function sinceText(r: StepResult, now: number): string {
  if (!r.since) return `since when: unknown (${r.sinceUnknown ?? 'AWS gives no date for it'})`;
  const at = Date.parse(r.since);
  const minutes = Math.max(0, Math.round((now - at) / 60_000));
  const age = minutes < 60 ? `${minutes} min` : minutes < 48 * 60 ? `${Math.round(minutes / 60)} h` : `${Math.round(minutes / 1440)} days`;
  return `waiting since ${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC (${age})`;
}

/** Returns the exit code. */
export async function runSetup(run: SetupRun): Promise<number> {
  const out = run.deps.out ?? ((text: string) => console.log(text));
  let options;
  try {
    options = parseSetupArgs(run.argv, run.env, run.tty);
  } catch (error) {
    if (error instanceof SetupError) {
      out(`✗ ${error.message}`);
      return 1;
    }
    throw error;
  }
  // With --json, stdout carries the JSON alone; the progress goes to stderr.
  const print = run.deps.print ?? (options.json ? (line: string) => console.error(line) : out);
  const deps: SetupDeps = { ...run.deps, print };
  let config;
  try {
    config = loadConfigFromCdkJson(cdkJsonFile(), options.trial ? { trial: true } : {});
  } catch (error) {
    if (error instanceof ConfigError) {
      out(`✗ ${error.message.replace(/\n\s*/g, ' ')} (fix cdk.json, then npm run setup again)`);
      return 1;
    }
    throw error;
  }
  const ctx = new SetupContext(options, deps, config);
  const deadline = deps.now() + options.waitMinutes * 60_000;
  let results = await runSteps(ctx, run.steps ?? STEPS);
  while (
    options.waitMinutes > 0 &&
    !results.some((r) => r.outcome === 'error') &&
    results.some((r) => r.outcome === 'waiting') &&
    deps.now() + POLL_MS <= deadline
  ) {
    print(`waiting (until ${new Date(deadline).toISOString()}): checking again in ${POLL_MS / 1000} s`);
    await deps.sleep(POLL_MS);
    results = await runSteps(ctx, run.steps ?? STEPS);
  }
  const error = results.find((r) => r.outcome === 'error');
  const waiting = results.filter((r) => r.outcome === 'waiting');
  let code = error ? 1 : waiting.length > 0 ? 2 : 0;
  if (code === 0) {
    const doctor = run.doctor ?? ((c: SetupContext) => runDoctor({ config: c.config, clients: deps.clients(c.config.region), print }));
    code = (await doctor(ctx)) === 0 ? 0 : 1;
  }
  const next = `npm run deploy${options.trial ? ' -- --trial' : ''}`;
  if (options.json) {
    out(JSON.stringify({ exitCode: code, account: ctx.account, results, ...(code === 0 ? { next } : {}) }, null, 2));
  } else if (error) {
    out(`✗ ${error.detail}`);
  } else if (waiting.length > 0) {
    out(`Waiting on ${waiting.length} thing${waiting.length > 1 ? 's' : ''}; run npm run setup again afterwards (or add --wait MINUTES):`);
    for (const w of waiting) out(`  - ${w.step}: ${w.waitingOn ?? w.detail}; ${sinceText(w, deps.now())}`);
  } else if (code === 0) {
    out(`Ready to deploy: ${next}`);
  } else {
    out('✗ the doctor still finds a problem (above); fix it, then npm run setup again');
  }
  return code;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The real run: this process's arguments, environment, terminal, AWS and CDK CLI. */
export function setupMain(argv: readonly string[]): Promise<number> {
  return runSetup({
    argv: [...argv],
    env: process.env,
    tty: Boolean(process.stdin.isTTY && process.stdout.isTTY),
    deps: {
      prompter: terminalPrompter,
      clients: awsSetupClients,
      // Its output goes to stderr, so --json keeps stdout to itself.
      runCdk: (args) => runCdk(args, {}, { stdoutToStderr: true }),
      readStdin,
      sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
      now: () => Date.now(),
    },
  });
}
