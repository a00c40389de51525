/**
 * `npm start`'s build: runs `npm run build` with its output going to a log file instead of the
 * screen, so the first screen of `npm start` holds what the owner needs (the addresses and how to
 * stop), not about a hundred lines of bundler tables and the framework's upgrade notices. It says
 * where the log is; when the build fails it prints the end of the log and exits with its code.
 */
import { spawn } from 'node:child_process';
import { createWriteStream, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** In the checkout (git ignores .local/), so two checkouts never write one log. */
export const BUILD_LOG = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.local', 'build.log');
/** How much of a failed build's log is shown: enough for the error and what led to it. */
const FAILURE_LINES = 40;

/** Runs a command with stdout and stderr written to `logFile`; resolves with its exit code. */
export function runLogged(command: string, args: readonly string[], logFile: string): Promise<number> {
  mkdirSync(path.dirname(logFile), { recursive: true });
  const log = createWriteStream(logFile);
  return new Promise((resolve, reject) => {
    // On Windows a bare `npm` is npm.cmd, which only a shell runs.
    const shell = process.platform === 'win32' && !path.isAbsolute(command);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], shell });
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.on('error', (error) => log.end(() => reject(error)));
    child.on('close', (code) => log.end(() => resolve(code ?? 1)));
  });
}

/** The last `count` lines of a text. */
export function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  process.stdout.write('Building the site… ');
  // Under npm, npm_execpath is npm's own script: the same npm runs the build, on every platform.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'build']] : ['npm', ['run', 'build']];
  runLogged(command, args as string[], BUILD_LOG).then(
    (code) => {
      if (code === 0) {
        console.log(`done in ${Math.round((performance.now() - started) / 1000)} s (build log: ${BUILD_LOG})`);
        return;
      }
      console.log('failed.');
      console.error(`${lastLines(readFileSync(BUILD_LOG, 'utf8'), FAILURE_LINES)}\n\nThe build failed (exit code ${code}); the whole log is ${BUILD_LOG}.`);
      process.exit(code);
    },
    (error: unknown) => {
      console.log('failed.');
      console.error(`Could not run the build: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
