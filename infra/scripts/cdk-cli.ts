/** Shared by synth.ts, deploy.ts and destroy.ts: read the flags, check the configuration, run the pinned CDK CLI. */
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
} from '../config/portfolio-config';

export interface ScriptArgs {
  /** --stage NAME: a preview copy; absent: the live site. */
  readonly stage?: string;
  /** --trial: allow Google's test reCAPTCHA key. */
  readonly trial: boolean;
  /** Everything else, passed on to the cdk command. */
  readonly rest: string[];
}

/** Takes the scripts' own flags (--stage NAME / --stage=NAME, --trial) out of the arguments. */
export function parseScriptArgs(argv: readonly string[]): ScriptArgs {
  const rest: string[] = [];
  let stage: string | undefined;
  let trial = false;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--trial') trial = true;
    else if (arg === '--stage') {
      stage = argv[++i];
      if (stage === undefined || stage.startsWith('-')) throw new ConfigError(['--stage: needs a name, e.g. --stage preview']);
    } else if (arg.startsWith('--stage=')) stage = arg.slice('--stage='.length);
    else rest.push(arg);
  }
  return { stage, trial, rest };
}

/** The block's overrides the flags ask for. */
export function overridesOf(args: ScriptArgs): Record<string, unknown> {
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
 * Reads and checks cdk.json's "portfolio" block with the flags applied; on a problem prints every one
 * (key named) and exits 1. For a deploy, the example values and (without a trial) Google's test key stop it too.
 */
export function checkedConfig(options: { forDeploy: boolean; args?: ScriptArgs }): PortfolioConfig {
  try {
    const config = loadConfigFromCdkJson(undefined, options.args ? overridesOf(options.args) : {});
    const problems = options.forDeploy ? deployReadinessProblems(config) : [];
    if (problems.length > 0) throw new ConfigError(problems);
    return config;
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`${error.message}\nEdit cdk.json (docs/deploy.md, "Configure", explains every key).`);
      process.exit(1);
    }
    throw error;
  }
}

/** Runs `cdk <args>` with telemetry and notices off; returns its exit status. */
export function runCdk(args: string[], env: NodeJS.ProcessEnv = {}): number {
  const cdk = path.join(REPO_ROOT, 'node_modules', '.bin', process.platform === 'win32' ? 'cdk.cmd' : 'cdk');
  const result = spawnSync(cdk, [...args, '--no-notices'], {
    cwd: REPO_ROOT,
    stdio: 'inherit',
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
