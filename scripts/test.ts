/**
 * `npm test`: the checks and builds the tests need, side by side, then Vitest. The formatter's check, the type-check, ESLint,
 * the test build (web/build, which the browser tests serve) and the shared fixture builds
 * (tools/locale-copy.ts) read the sources and write nothing another one reads, so they run at once
 * rather than one after another; the shared builds are made here, before the tests, so that no test
 * waits for one while its worker could be running another file. Each step's output is shown when it
 * ends, whole if it failed; the first failure stops the others and the run. Arguments go to Vitest.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fixtureSiteBuild, readmeExampleBuild } from '../tools/locale-copy';
import { runChild } from '../tools/run-tsx';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

export interface Step {
  name: string;
  /** Resolves with the step's exit code and what it printed; `signal` aborts it (another step failed). */
  run(signal: AbortSignal): Promise<{ code: number; output: string }>;
}

/** An npm script as a step. */
export function npmStep(script: string, cwd = ROOT): Step {
  return {
    name: `npm run ${script}`,
    run: async (signal) => {
      const { status, output } = await runChild(NPM, ['run', '--silent', script], { cwd, signal });
      return { code: status ?? 1, output };
    },
  };
}

/**
 * Runs the steps at once. Resolves true when all succeed; at the first failure it prints that step's
 * output, stops the others and resolves false. `print` receives each line of the report.
 */
export async function runSteps(
  steps: readonly Step[],
  print: (text: string) => void = (text) => process.stdout.write(text),
  abort = new AbortController(),
): Promise<boolean> {
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  let failed = false;
  await Promise.all(
    steps.map(async (step) => {
      const { code, output } = await step.run(abort.signal).catch((error: unknown) => ({ code: 1, output: String(error) }));
      if (failed || abort.signal.aborted) return; // stopped because another step failed, or by Ctrl-C
      if (code === 0) {
        print(`✓ ${step.name} (${seconds()} s)\n`);
        return;
      }
      failed = true;
      abort.abort();
      print(`✗ ${step.name} failed (exit ${code}, ${seconds()} s):\n${output.trimEnd()}\n`);
    }),
  );
  return !failed && !abort.signal.aborted;
}

/** The shared builds the tests of posts, right-to-left and the README's examples read. */
const sharedBuilds: Step = {
  name: 'shared fixture builds (tools/locale-copy.ts)',
  run: async () => {
    const [, readme] = await Promise.all([fixtureSiteBuild(), readmeExampleBuild()]);
    return { code: readme.code, output: `${readme.stdout}${readme.stderr}` };
  },
};

async function main(): Promise<void> {
  // The npm steps run in process groups of their own (tools/run-tsx.ts runChild): Ctrl-C stops them here.
  const abort = new AbortController();
  const interrupt = () => abort.abort();
  process.once('SIGINT', interrupt).once('SIGTERM', interrupt);
  const ready = await runSteps(
    [npmStep('format:check'), npmStep('typecheck'), npmStep('lint'), npmStep('build:test'), sharedBuilds],
    undefined,
    abort,
  );
  if (!ready) process.exit(abort.signal.aborted ? 130 : 1);
  process.off('SIGINT', interrupt).off('SIGTERM', interrupt);
  const vitest = spawn(process.execPath, [path.join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', ...process.argv.slice(2)], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  vitest.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
