/**
 * How every owner's command starts and ends: `runCommand` runs its `run` function and exits with one of
 * three codes, the same for every command (docs/architecture.md, "The owner's commands"):
 * 0 done, 1 failed (the problem printed as one line, and for cdk.json where to fix it), 2 usage (a
 * wrong flag or argument: the problem and the command's usage line). Only this file ends the process.
 */
import { ConfigError } from '../../config/portfolio-config';
import { errorText } from './aws';

export const EXIT = { done: 0, failed: 1, usage: 2 } as const;

/** The command line is wrong: printed with the command's usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A problem the owner can act on, printed as one line (no stack), exit 1. */
export class CommandError extends Error {
  override name = 'CommandError';
}

/** Where to fix cdk.json, under every configuration problem. */
export const CONFIG_HINT = 'Edit cdk.json (docs/deploy.md, "Configure", explains every key).';

export interface CommandSpec {
  /** `npm run NAME`, for the messages. */
  readonly name: string;
  /** How it is run when that is not `npm run NAME` (the workflows' `tsx …/cli.ts`), for the messages. */
  readonly invocation?: string;
  /** Printed under a usage error. */
  readonly usage: string;
  /** Does the work; returns the exit code (a check that found problems returns 1). */
  readonly run: (argv: readonly string[]) => Promise<number> | number;
}

/** Runs the command and returns its exit code, having printed any error to `stderr`; never exits. */
export async function commandExitCode(
  spec: CommandSpec,
  argv: readonly string[],
  stderr: (text: string) => void = (text) => console.error(text),
): Promise<number> {
  try {
    return await spec.run(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      stderr(`✗ ${error.message}\n\n${spec.usage}`);
      return EXIT.usage;
    }
    if (error instanceof ConfigError) stderr(`✗ ${error.message}\n  → ${CONFIG_HINT}`);
    else if (error instanceof CommandError) stderr(`✗ ${error.message}`);
    else stderr(`✗ ${spec.invocation ?? `npm run ${spec.name}`} could not finish: ${errorText(error)}`);
    return EXIT.failed;
  }
}

/**
 * The one place a command ends the process (open SDK sockets or timers must not keep it alive after
 * the answer is printed).
 */
export function runCommand(spec: CommandSpec, argv: readonly string[] = process.argv.slice(2)): void {
  void commandExitCode(spec, argv).then((code) => process.exit(code));
}
