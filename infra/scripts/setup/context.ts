/**
 * What every setup step works with: the options (flags and environment), the current configuration
 * (re-read after each write to cdk.json), the AWS clients of its region, the prompter, and the one way
 * each of them gets an answer, a consent or the reCAPTCHA secret, with or without a terminal.
 */
import type { IAMClient } from '@aws-sdk/client-iam';
import type { S3Client } from '@aws-sdk/client-s3';
import type { SNSClient } from '@aws-sdk/client-sns';
import { ConfigError, type PortfolioConfig } from '../../config/portfolio-config';
import type { DoctorClients } from '../doctor/checks';
import { UsageError } from '../kit/command';
import { type FlagOptions, parseFlags } from '../kit/flags';
import { cdkJsonFile, editPortfolioBlock, readCdkJson, writeAtomically } from './cdk-json';
import type { Prompter, SelectQuestion, TextQuestion } from './prompter';

export interface SetupClients extends DoctorClients {
  /** In the configured region (the alarm topic lives there). */
  sns: SNSClient;
  /** IAM is global: the bootstrap's execution policy. */
  iam: IAMClient;
  /** A region's bootstrap staging bucket (left behind by a failed bootstrap). */
  s3: (region: string) => S3Client;
}

/** A problem setup cannot fix by itself: one line naming the value and what to do. Exit 1. */
export class SetupError extends Error {
  override name = 'SetupError';
}

/** The answers a flag or an environment variable can give, so setup runs without a terminal. */
export const ANSWERS = {
  'owner-email': { flag: '--owner-email', env: 'SETUP_OWNER_EMAIL' },
  'sender-email': { flag: '--sender-email', env: 'SETUP_SENDER_EMAIL' },
  region: { flag: '--region', env: 'SETUP_REGION' },
  'recaptcha-site-key': { flag: '--recaptcha-site-key', env: 'RECAPTCHA_SITE_KEY' },
  'website-url': { flag: '--website-url', env: 'SETUP_WEBSITE_URL' },
  domain: { flag: '--domain', env: 'SETUP_DOMAIN' },
  'hosted-zone-name': { flag: '--hosted-zone-name', env: 'SETUP_HOSTED_ZONE_NAME' },
  'cloudfront-plan': { flag: '--cloudfront-plan', env: 'SETUP_CLOUDFRONT_PLAN' },
} as const;
export type AnswerId = keyof typeof ANSWERS;

export interface SetupOptions {
  /** Apply every change without asking. */
  yes: boolean;
  /** Questions may be asked (a terminal, no --yes, not CI). */
  interactive: boolean;
  json: boolean;
  /** --wait MINUTES: poll instead of exiting 2. */
  waitMinutes: number;
  trial: boolean;
  expectAccount?: string;
  recaptchaSecretStdin: boolean;
  /** --request-production-access: ask AWS to take SES out of the sandbox. */
  requestProductionAccess: boolean;
  /** --delete-failed-bootstrap: delete a CDKToolkit stack in ROLLBACK_COMPLETE without a terminal. */
  deleteFailedBootstrap: boolean;
  /** --external-dns: the --domain's DNS is not in Route 53 here; setup requests the certificate itself. */
  externalDns: boolean;
  answers: Partial<Record<AnswerId, string>>;
  env: Record<string, string | undefined>;
}

/** The switches, by the option name of SetupOptions they set. */
const BOOLEAN_FLAGS = {
  yes: 'yes',
  json: 'json',
  trial: 'trial',
  'recaptcha-secret-stdin': 'recaptchaSecretStdin',
  'request-production-access': 'requestProductionAccess',
  'delete-failed-bootstrap': 'deleteFailedBootstrap',
  'external-dns': 'externalDns',
} as const;

type Switch = (typeof BOOLEAN_FLAGS)[keyof typeof BOOLEAN_FLAGS];

/** Every flag, for the one line a run without a terminal prints instead of waiting for a question. */
export const FLAG_LIST = [
  ...Object.keys(BOOLEAN_FLAGS).map((f) => `--${f}`),
  '--wait MINUTES',
  '--expect-account ID',
  ...Object.values(ANSWERS).map((a) => `${a.flag} VALUE (or ${a.env})`),
  'RECAPTCHA_SECRET (environment only)',
].join(', ');

const SETUP_FLAGS = {
  ...Object.fromEntries(Object.keys(BOOLEAN_FLAGS).map((f) => [f, { type: 'boolean' as const }])),
  yes: { type: 'boolean', short: 'y' },
  wait: { type: 'string' },
  'expect-account': { type: 'string' },
  // Known only to be refused with the reason (a secret in the shell history).
  'recaptcha-secret': { type: 'string' },
  ...Object.fromEntries(Object.values(ANSWERS).map((a) => [a.flag.slice(2), { type: 'string' as const }])),
} satisfies FlagOptions;

/**
 * The flags, on the kit's parser. A wrong flag is a SetupError (exit 1), not the kit's usage error:
 * setup's exit 2 already means "waiting on a person or AWS" (docs/deploy.md).
 */
export function parseSetupArgs(argv: readonly string[], env: Record<string, string | undefined>, tty: boolean): SetupOptions {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseFlags(argv, SETUP_FLAGS, { known: FLAG_LIST }));
  } catch (error) {
    if (error instanceof UsageError) throw new SetupError(error.message);
    throw error;
  }
  const switches = Object.entries(BOOLEAN_FLAGS).map(([flag, option]) => [option, values[flag] === true]);
  const options: SetupOptions = {
    ...(Object.fromEntries(switches) as Record<Switch, boolean>),
    interactive: false,
    waitMinutes: 0,
    answers: {},
    env,
  };
  if (values['recaptcha-secret'] !== undefined) {
    throw new SetupError(
      '--recaptcha-secret: a secret is never read from the command line (it would stay in the shell history); set RECAPTCHA_SECRET or use --recaptcha-secret-stdin',
    );
  }
  if (typeof values.wait === 'string') {
    const minutes = Number(values.wait);
    if (!Number.isFinite(minutes) || minutes <= 0) throw new SetupError(`--wait ${values.wait}: give the minutes to wait, e.g. --wait 30`);
    options.waitMinutes = minutes;
  }
  if (typeof values['expect-account'] === 'string') {
    const account = values['expect-account'];
    if (!/^\d{12}$/.test(account)) throw new SetupError(`--expect-account ${account}: an AWS account id has 12 digits`);
    options.expectAccount = account;
  }
  for (const [id, answer] of Object.entries(ANSWERS)) {
    const value = values[answer.flag.slice(2)];
    if (typeof value === 'string') options.answers[id as AnswerId] = value;
  }
  const ci = /^(1|true)$/i.test(env.CI ?? '');
  options.interactive = tty && !options.yes && !ci;
  return options;
}

export type Outcome = 'ready' | 'changed' | 'waiting' | 'skipped' | 'error';
export interface StepResult {
  step: string;
  outcome: Outcome;
  detail: string;
  /** For "waiting": who must act (you, AWS, DNS) and what. */
  waitingOn?: string;
  /** For "waiting": since when (ISO 8601), read from the account; no local state is kept. */
  since?: string;
  /** For "waiting" without a date: why it is unknown (AWS keeps none for it). */
  sinceUnknown?: string;
}

export interface SetupDeps {
  prompter: Prompter;
  /** The AWS clients of a region (the configured one changes when the owner picks another). */
  clients: (region: string) => SetupClients;
  print: (line: string) => void;
  /** Runs the pinned CDK CLI; returns its exit status. */
  runCdk: (args: string[]) => number;
  readStdin: () => Promise<string>;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

export class SetupContext {
  account = '';
  arn = '';
  private accountConfirmed = false;
  constructor(
    readonly options: SetupOptions,
    readonly deps: SetupDeps,
    public config: PortfolioConfig,
  ) {}

  get clients(): SetupClients {
    return this.deps.clients(this.config.region);
  }
  print(line: string): void {
    this.deps.print(line);
  }
  overrides(): Record<string, unknown> {
    return this.options.trial ? { trial: true } : {};
  }

  /** An answer from its flag, its environment variable or the owner; without a terminal a missing one fails at once. */
  async ask(id: AnswerId, q: Omit<TextQuestion, 'id'>): Promise<string> {
    const source = ANSWERS[id];
    const given = this.options.answers[id] ?? this.options.env[source.env];
    if (given !== undefined && given.trim() !== '') {
      const value = given.trim();
      const problem = q.validate?.(value);
      if (problem) throw new SetupError(`${source.flag} ${value}: ${problem}`);
      return value;
    }
    if (!this.options.interactive)
      throw new SetupError(`${q.message}: no answer without a terminal; pass ${source.flag} VALUE or set ${source.env}`);
    return (await this.deps.prompter.text({ id, ...q })).trim();
  }

  async choose<T extends string>(q: SelectQuestion<T>, id: AnswerId): Promise<T> {
    const source = ANSWERS[id];
    const given = this.options.answers[id] ?? this.options.env[source.env];
    if (given) return given as T;
    if (!this.options.interactive)
      throw new SetupError(`${q.message}: no answer without a terminal; pass ${source.flag} VALUE or set ${source.env}`);
    return this.deps.prompter.select(q);
  }

  /**
   * The owner's yes to a change: --yes gives it; in a terminal it is asked (after the account is
   * confirmed once per run); without either the run stops naming --yes. `optional` changes are
   * skipped without a terminal or --yes instead. `initial` is the answer Enter gives (yes unless said).
   */
  async consent(id: string, message: string, options: { optional?: boolean; initial?: boolean } = {}): Promise<boolean> {
    if (this.options.yes) return true;
    if (!this.options.interactive) {
      if (options.optional) return false;
      throw new SetupError(`${message}: needs your yes; without a terminal pass --yes (flags: ${FLAG_LIST})`);
    }
    if (!this.accountConfirmed && !this.options.expectAccount) {
      const same = await this.deps.prompter.confirm({
        id: 'account',
        message: `Make changes in AWS account ${this.account} as ${this.arn}?`,
      });
      if (!same)
        throw new SetupError(
          `account ${this.account}: not confirmed; switch credentials (e.g. export AWS_PROFILE=NAME) and run npm run setup again`,
        );
      this.accountConfirmed = true;
    }
    return this.deps.prompter.confirm({ id, message, initial: options.initial });
  }

  /** Writes answers into cdk.json's block after showing the diff; the configuration is re-read. */
  async writeConfig(changes: Record<string, unknown>): Promise<void> {
    const file = cdkJsonFile();
    let edit;
    try {
      edit = editPortfolioBlock(readCdkJson(file), changes, this.overrides());
    } catch (error) {
      if (error instanceof ConfigError) throw new SetupError(error.problems.join('; '));
      throw error;
    }
    if (edit.diff.length === 0) return;
    this.print(`cdk.json (context.portfolio):\n${edit.diff.map((l) => `  ${l}`).join('\n')}`);
    if (!(await this.consent('write-cdk-json', 'Write this to cdk.json?')))
      throw new SetupError('cdk.json: not written (your answer); run npm run setup again when ready');
    writeAtomically(file, edit.text);
    this.config = edit.config;
  }
}
