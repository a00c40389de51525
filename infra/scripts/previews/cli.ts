/** The pull-request previews' bookkeeping, run by the preview workflows: see run.ts. */
import { runCommand } from '../kit/command';
import { previewsCommand, USAGE } from './run';

runCommand({ name: 'previews', invocation: 'tsx infra/scripts/previews/cli.ts', usage: USAGE, run: previewsCommand });
