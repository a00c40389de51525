/**
 * `npm run smoke -- URL`: checks a live site from outside (routes, 404, headers, CSP, API) and
 * prints a table; exit 1 on any failure. `npm run deploy` runs it last against the new address.
 */
import { exitCode, formatTable } from '../report';
import { normalizeBaseUrl, runSmoke, SMOKE_EVENT_NAME } from './checks';

/** Runs the smoke check against `url`, prints the table, returns the exit code. */
export async function smokeExitCode(url: string, print: (text: string) => void = (t) => console.log(t)): Promise<number> {
  const base = normalizeBaseUrl(url);
  const results = await runSmoke(base);
  print(formatTable(results, `npm run smoke: ${base} (read-only; sends one ${SMOKE_EVENT_NAME} click event)`));
  return exitCode(results);
}

const isMain = process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/\\/g, '/'));
if (isMain) {
  const url = process.argv[2];
  if (!url || process.argv.length > 3) {
    console.error('Usage: npm run smoke -- <site URL>   e.g. npm run smoke -- https://www.example.dev');
    process.exit(2);
  }
  smokeExitCode(url).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`✗ ${(error as Error)?.message ?? String(error)}`);
      process.exit(1);
    },
  );
}
