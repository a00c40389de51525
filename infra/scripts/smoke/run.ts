/**
 * `npm run smoke -- URL`: checks a live site from outside (routes, 404, headers, CSP, API) and prints a
 * table; exit 1 on any failure. Also run at the end of `npm run deploy`.
 */
import { UsageError } from '../kit/command';
import { parseFlags } from '../kit/flags';
import { exitCode, formatTable } from '../report';
import { normalizeBaseUrl, runSmoke, SMOKE_EVENT_NAME } from './checks';

export const USAGE = 'Usage: npm run smoke -- <site URL>   e.g. npm run smoke -- https://www.example.dev';

/** Runs the smoke check against `url`, prints the table, returns the exit code (0: all passed). */
export async function smokeExitCode(url: string, print: (text: string) => void = (t) => console.log(t)): Promise<number> {
  const base = normalizeBaseUrl(url);
  const results = await runSmoke(base);
  print(formatTable(results, `npm run smoke: ${base} (read-only; sends one ${SMOKE_EVENT_NAME} click event)`));
  return exitCode(results);
}

/** `npm run smoke`'s command line: exactly one address, no flags. */
export function smokeCommand(argv: readonly string[], print?: (text: string) => void): Promise<number> {
  const { positionals } = parseFlags(argv, {}, { positionals: true });
  if (positionals.length !== 1) throw new UsageError(positionals.length === 0 ? 'the site URL is missing' : 'one site URL, please');
  try {
    normalizeBaseUrl(positionals[0]!);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  return smokeExitCode(positionals[0]!, print);
}
