/**
 * `npm run smoke -- URL`: checks a live site from outside (routes, 404, headers, CSP, API) and
 * prints a table; exit 1 on any failure, 2 on a usage error.
 */
import { smokeExitCode } from './run';

const args = process.argv.slice(2);
if (args.length !== 1) {
  console.error('Usage: npm run smoke -- <site URL>   e.g. npm run smoke -- https://www.example.dev');
  process.exit(2);
}
smokeExitCode(args[0]!).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
