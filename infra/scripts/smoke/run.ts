/** The smoke check as a function: used by `npm run smoke` (smoke/cli.ts) and at the end of `npm run deploy`. */
import { exitCode, formatTable } from '../report';
import { normalizeBaseUrl, runSmoke, SMOKE_EVENT_NAME } from './checks';

/** Runs the smoke check against `url`, prints the table, returns the exit code (0: all passed). */
export async function smokeExitCode(url: string, print: (text: string) => void = (t) => console.log(t)): Promise<number> {
  const base = normalizeBaseUrl(url);
  const results = await runSmoke(base);
  print(formatTable(results, `npm run smoke: ${base} (read-only; sends one ${SMOKE_EVENT_NAME} click event)`));
  return exitCode(results);
}
