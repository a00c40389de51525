/** `npm run visitors [-- --days N] [--stage NAME] [--local] [--json]`: page views and Core Web Vitals (run.ts). */
import { runVisitors } from './run';

runVisitors(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`✗ npm run visitors could not finish: ${(error as Error)?.message ?? String(error)}`);
    process.exit(1);
  },
);
