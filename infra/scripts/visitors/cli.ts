/** `npm run visitors [-- --days N] [--stage NAME] [--local] [--json]`: page views and Core Web Vitals (run.ts). */
import { runCommand } from '../kit/command';
import { USAGE, visitorsCommand } from './run';

runCommand({ name: 'visitors', usage: USAGE, run: (argv) => visitorsCommand(argv) });
