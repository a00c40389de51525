/**
 * The commands' flags, on node:util parseArgs. A flag the command does not know is a usage error that
 * lists the ones it knows, unless the command hands the rest to the CDK CLI (`passThrough`).
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from './command';

export type FlagOptions = NonNullable<ParseArgsConfig['options']>;

export interface ParsedFlags {
  readonly values: Record<string, string | boolean | undefined>;
  readonly positionals: string[];
  /** With passThrough: every argument the command's own flags did not take, in order. */
  readonly rest: string[];
}

/** "--stage NAME, --trial": the flags as the owner types them. */
export function knownFlags(options: FlagOptions): string {
  return Object.entries(options)
    .map(([name, option]) => `--${name}${option.type === 'string' ? ' NAME' : ''}`)
    .join(', ');
}

/** A flag given without its value; the stage, which most commands take, with an example. */
const needsValue = (flag: string) => `${flag} needs a value${flag === '--stage' ? ', e.g. --stage preview' : ''}`;

export function parseFlags(
  argv: readonly string[],
  options: FlagOptions,
  {
    positionals = false,
    passThrough = false,
    known = knownFlags(options),
  }: {
    positionals?: boolean;
    passThrough?: boolean;
    /** The flags as the refusal lists them (setup adds their environment variables). */ known?: string;
  } = {},
): ParsedFlags {
  if (!passThrough) {
    try {
      const parsed = parseArgs({ args: [...argv], options, strict: true, allowPositionals: positionals });
      return { values: parsed.values as ParsedFlags['values'], positionals: parsed.positionals, rest: [] };
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
        const flag = /'([^']+)'/.exec((error as Error).message)?.[1] ?? 'option';
        throw new UsageError(`unknown option ${flag} (known: ${known})`);
      }
      if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') {
        throw new UsageError(`unexpected argument (known options: ${known})`);
      }
      if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
        const flag = /'(--[^' ]+)/.exec((error as Error).message)?.[1] ?? 'an option';
        throw new UsageError(needsValue(flag));
      }
      throw error;
    }
  }
  // Lenient parsing, so the command's own flags come out and everything else stays as typed.
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const values: Record<string, string | boolean | undefined> = {};
  const taken = new Set<number>();
  for (const token of tokens) {
    if (token.kind === 'option-terminator') taken.add(token.index);
    if (token.kind !== 'option' || !(token.name in options)) continue;
    taken.add(token.index);
    if (options[token.name]!.type === 'string') {
      if (token.value === undefined || (!token.inlineValue && token.value.startsWith('-'))) {
        throw new UsageError(needsValue(`--${token.name}`));
      }
      if (!token.inlineValue) taken.add(token.index + 1);
    }
    values[token.name] = token.value ?? true;
  }
  return { values, positionals: [], rest: argv.filter((_, index) => !taken.has(index)) };
}
