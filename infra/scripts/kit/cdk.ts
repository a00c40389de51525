/**
 * The deploy-side commands' shared pieces (synth, deploy, destroy, doctor, messages): their --stage
 * and --trial flags, cdk.json's checked configuration, the pinned CDK CLI and the npm-script hooks.
 * Nothing here ends the process: a problem is thrown, and kit/command.ts prints it and exits.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  ConfigError,
  CONTEXT_OVERRIDES,
  deployReadinessProblems,
  loadConfigFromCdkJson,
  type PortfolioConfig,
  REPO_ROOT,
} from '../../config/portfolio-config';
import { parseFlags, type FlagOptions } from './flags';

export interface ScriptArgs {
  /** --stage NAME: a preview copy; absent: the live site. */
  readonly stage?: string;
  /** --trial: allow Google's test reCAPTCHA key. */
  readonly trial: boolean;
  /** Everything else, passed on to the cdk command. */
  readonly rest: string[];
}

export const STAGE_FLAGS = { stage: { type: 'string' }, trial: { type: 'boolean' } } satisfies FlagOptions;

/** Takes the deploy flags (--stage NAME / --stage=NAME, --trial) out of the arguments; the rest is the CDK CLI's. */
export function parseScriptArgs(argv: readonly string[]): ScriptArgs {
  const { values, rest } = parseFlags(argv, STAGE_FLAGS, { passThrough: true });
  return { stage: values.stage as string | undefined, trial: values.trial === true, rest };
}

/** The block's overrides the flags ask for. */
export function overridesOf(args: Pick<ScriptArgs, 'stage' | 'trial'>): Record<string, unknown> {
  return { ...(args.stage !== undefined ? { stage: args.stage } : {}), ...(args.trial ? { trial: true } : {}) };
}

/** `-c portfolio:…=…` arguments that give the CDK app the same stage, trial and site address. */
export function contextArgs(config: PortfolioConfig, siteUrl = ''): string[] {
  const args: string[] = [];
  if (config.stage) args.push('-c', `${CONTEXT_OVERRIDES.stage}=${config.stage}`);
  if (config.trial) args.push('-c', `${CONTEXT_OVERRIDES.trial}=true`);
  if (siteUrl && !config.domain) args.push('-c', `${CONTEXT_OVERRIDES.siteUrl}=${siteUrl}`);
  return args;
}

/**
 * cdk.json's "portfolio" block with the flags applied; throws a ConfigError naming every problem (key
 * named). For a deploy, the example values and (without a trial) Google's test key are problems too.
 */
export function checkedConfig(options: { forDeploy: boolean; args?: Pick<ScriptArgs, 'stage' | 'trial'> }): PortfolioConfig {
  const config = loadConfigFromCdkJson(undefined, options.args ? overridesOf(options.args) : {});
  const problems = options.forDeploy ? deployReadinessProblems(config) : [];
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/**
 * Runs `cdk <args>` with telemetry and notices off; returns its exit status. The pinned CLI, or
 * PORTFOLIO_CDK_CLI (the spawning tests' stub that records its arguments). `stdoutToStderr` keeps
 * stdout for a command's own answer (setup's --json).
 */
export function runCdk(args: string[], env: NodeJS.ProcessEnv = {}, { stdoutToStderr = false } = {}): number {
  const cdk =
    process.env.PORTFOLIO_CDK_CLI || path.join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'cdk.cmd' : 'cdk');
  const result = spawnSync(cdk, [...args, '--no-notices'], {
    cwd: REPO_ROOT,
    stdio: stdoutToStderr ? ['inherit', 2, 'inherit'] : 'inherit',
    env: { ...process.env, CDK_DISABLE_CLI_TELEMETRY: '1', ...env },
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/** True when package.json defines the npm script (doctor and smoke are optional hooks). */
export function hasNpmScript(name: string): boolean {
  const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { scripts?: Record<string, string> };
  return Boolean(pkg.scripts?.[name]);
}

/** Runs `npm run <name> -- <args>` in the repository; returns its exit status. */
export function runNpmScript(name: string, args: string[] = []): number {
  const result = spawnSync('npm', ['run', '--silent', name, ...(args.length ? ['--', ...args] : [])], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
  });
  if (result.error) throw result.error;
  return result.status ?? 1;
}
