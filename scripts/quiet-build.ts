/**
 * `npm start`'s build: runs `npm run build` with its output going to a log file instead of the
 * screen, so the first screen of `npm start` holds what the owner needs (the addresses and how to
 * stop), not about a hundred lines of bundler tables and the framework's upgrade notices. It says
 * where the log is and repeats the content warnings (a language not yet translated); when the build
 * fails it prints the first real error (file, line, message) first, and exits with the build's code, or,
 * when `npm start` has served a good build before, says that one is served meanwhile and lets it start.
 * When nothing the build reads has changed since its last success (tools/build-inputs.ts, the .env
 * files, the VITE_ variables), it builds nothing: restarting (`LOCAL_CAPTCHA=fake npm start` after the
 * offline notice, another PORT) serves the same site at once.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { POSTBUILD_REPORT_FILE, WEB_BUILD_DIR } from '../infra/shared/build-output';
import { BUILD_INPUTS, hashFiles, LOCK_FILE } from '../tools/build-inputs';
import { CONTENT_WARNING } from '../web/content/content-warning';
import { lastServedBuild } from './last-good-build';

/** In the checkout (git ignores .local/), so two checkouts never write one log. */
export const BUILD_LOG = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '.local', 'build.log');
/** Where `npm start` keeps its copies of the last good build (scripts/last-good-build.ts). */
export const SERVING_DIR = path.join(path.dirname(BUILD_LOG), 'serving');
/** The fingerprint of the last successful build's inputs, beside its log. */
export const BUILD_STAMP = path.join(path.dirname(BUILD_LOG), 'build-inputs');

/**
 * A fingerprint of everything a build reads in `root`: the files (tools/build-inputs.ts), the .env files,
 * the VITE_ variables Vite reads (vite.config.ts, loadEnv) and a preview's PREVIEW_PATH and PREVIEW_LABEL.
 */
export function buildFingerprint(root: string, env: NodeJS.ProcessEnv): string {
  const envFiles = readdirSync(root).filter((name) => name.startsWith('.env'));
  const variables = Object.keys(env)
    .filter((name) => name.startsWith('VITE_') || name === 'PREVIEW_PATH' || name === 'PREVIEW_LABEL')
    .sort()
    .map((name) => `${name}=${env[name]}`);
  return createHash('sha256')
    .update(hashFiles([...BUILD_INPUTS, LOCK_FILE, ...envFiles], root))
    .update(variables.join('\n'))
    .digest('hex')
    .slice(0, 16);
}

/**
 * The stamp's text: the fingerprint and when the build's report was written, so a build run some other
 * way since (`npm run build` with other variables) is not taken for this one.
 */
export function stampText(fingerprint: string, reportFile: string): string | undefined {
  const report = statSync(reportFile, { throwIfNoEntry: false });
  return report ? `${fingerprint} ${report.mtimeMs}` : undefined;
}

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

/** At most this many lines of an error's message are shown (the content check lists one problem a line). */
const MESSAGE_LINES = 20;
/** A thrown error as Node prints it: "TypeError: …", "Error [ERR_MODULE_NOT_FOUND]: …". */
const THROWN = /^\s*(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/;
/** The bundler's summary, whose next lines hold the error (after a "[plugin …]" line). */
const BUNDLER_FAILED = /^\s*Build failed with \d+ errors?:?\s*$/;
/** A stack frame: "    at fn (file:///path/file.ts:12:5)" or "    at /path/file.ts:12:5". */
const FRAME = /^\s+at (?:.*?\()?(?:file:\/\/)?(\/[^():]+|[A-Za-z]:[\\/][^():]+|[^\s():]+\.[cm]?[jt]sx?):(\d+):(\d+)\)?\s*$/;
/** The bundler's code frame: "╭─[ web/content/fr/ui.ts:6:13 ]". */
const CODE_FRAME = /╭─\[\s*([^\]]+?):(\d+):(\d+)\s*\]/;
/** A TypeScript diagnostic: "web/app/root.tsx(12,5): error TS2322: …" or "web/app/root.tsx:12:5 - error TS2322: …". */
const TS_ERROR = /^(\S+?)(?:\((\d+),(\d+)\)|:(\d+):(\d+)) ?[:-] ?error (TS\d+: .*)$/;

export interface BuildError {
  /** The error's own words (a few lines at most). */
  message: string;
  /** Where it is, relative to the project when it is in it: "web/content/fr/ui.ts:6:13". */
  location?: string;
}

/**
 * The first real error in a build's log: the first error thrown, or the bundler's own report, or a
 * TypeScript diagnostic, whichever comes first, with the first place in the project's own files
 * (not in node_modules) that its stack or code frame names. Undefined when the log has none.
 */
export function firstError(log: string, root: string = process.cwd()): BuildError | undefined {
  const lines = stripVTControlCharacters(log).split(/\r?\n/);
  const relative = (file: string) => {
    const full = path.resolve(root, file);
    const inside = path.relative(root, full);
    return inside.startsWith('..') || path.isAbsolute(inside) ? file : inside.split(path.sep).join('/');
  };
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const ts = TS_ERROR.exec(line.trim());
    if (ts) return { message: ts[6]!, location: `${relative(ts[1]!)}:${ts[2] ?? ts[4]}:${ts[3] ?? ts[5]}` };
    let start = -1;
    if (BUNDLER_FAILED.test(line)) {
      start = i + 1;
      while (start < lines.length && /^\s*(?:\[[^\]]+\]\s*)?$/.test(lines[start]!)) start += 1; // "[plugin react-router]" alone
      if (start >= lines.length) continue;
    } else if (THROWN.test(line)) {
      start = i;
    } else {
      continue;
    }
    const stop = (text: string) =>
      text.trim() === '' ||
      FRAME.test(text) ||
      CODE_FRAME.test(text) ||
      THROWN.test(text) ||
      BUNDLER_FAILED.test(text) ||
      /^\s*(?:[│─╰╭✗]|\d+ │)/.test(text);
    const message = [lines[start]!.trim().replace(/^\[[^\]]+\]\s*/, '')];
    for (let j = start + 1; j < lines.length && message.length < MESSAGE_LINES && !stop(lines[j]!); j += 1)
      message.push(lines[j]!.trimEnd());
    let location: string | undefined;
    for (let j = start + 1; j < Math.min(lines.length, start + 80); j += 1) {
      const text = lines[j]!;
      if (THROWN.test(text) || BUNDLER_FAILED.test(text)) break;
      const place = CODE_FRAME.exec(text) ?? FRAME.exec(text);
      if (place && !/[\\/]node_modules[\\/]|^node:/.test(place[1]!)) {
        location = `${relative(place[1]!)}:${place[2]}:${place[3]}`;
        break;
      }
    }
    const text = message.join('\n');
    // The content check's messages name the file and key themselves; its own line would only mislead.
    return { message: text, location: /\bweb\/content\/[\w./-]+\.ts\b/.test(text) ? undefined : location };
  }
  return undefined;
}

/** The owner's content warnings in a build's log (web/content/check.ts), each once, in order. */
export function contentWarnings(log: string, prefix: string): string[] {
  const found = stripVTControlCharacters(log)
    .split(/\r?\n/)
    .filter((line) => line.startsWith(prefix));
  return [...new Set(found)];
}

/** What `npm start` prints when the build fails: the first error first, then where the whole log is. */
export function failureReport(log: string, code: number, logFile: string, root: string = process.cwd()): string {
  const error = firstError(log, root);
  const whole = `The build failed (exit code ${code}); the whole log is ${logFile}.`;
  if (!error) return `${lastLines(log, FAILURE_LINES)}\n\n${whole}`;
  return `${error.location ? `${error.location}: ` : ''}${error.message}\n\n${whole}`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  process.stdout.write('Building the site… ');
  const root = process.cwd();
  const report = path.join(WEB_BUILD_DIR, POSTBUILD_REPORT_FILE);
  const fingerprint = buildFingerprint(root, process.env);
  const last = existsSync(BUILD_STAMP) ? readFileSync(BUILD_STAMP, 'utf8').trim() : undefined;
  if (last !== undefined && last === stampText(fingerprint, report) && existsSync(BUILD_LOG)) {
    console.log(`up to date: nothing it reads has changed since the last build (build log: ${BUILD_LOG})`);
    for (const warning of contentWarnings(readFileSync(BUILD_LOG, 'utf8'), CONTENT_WARNING)) console.warn(warning);
    process.exit(0);
  }
  rmSync(BUILD_STAMP, { force: true });
  // Under npm, npm_execpath is npm's own script: the same npm runs the build, on every platform.
  const npm = process.env.npm_execpath;
  const [command, args] = npm ? [process.execPath, [npm, 'run', 'build']] : ['npm', ['run', 'build']];
  runLogged(command, args as string[], BUILD_LOG).then(
    (code) => {
      const log = readFileSync(BUILD_LOG, 'utf8');
      if (code === 0) {
        const stamp = stampText(fingerprint, report);
        if (stamp) writeFileSync(BUILD_STAMP, `${stamp}\n`);
        console.log(`done in ${Math.round((performance.now() - started) / 1000)} s (build log: ${BUILD_LOG})`);
        for (const warning of contentWarnings(log, CONTENT_WARNING)) console.warn(warning);
        return;
      }
      console.log('failed.');
      console.error(failureReport(log, code, BUILD_LOG));
      // With a good build served before (scripts/last-good-build.ts), npm start goes on serving it.
      const previous = lastServedBuild(SERVING_DIR);
      if (previous) {
        const time = statSync(path.join(previous, POSTBUILD_REPORT_FILE)).mtime.toTimeString().slice(0, 5);
        console.error(
          `\nnpm start serves the last good build (of ${time}) meanwhile. Fix the above, then run \`npm run build\`: the new build is served as soon as it is complete.`,
        );
        process.exit(0);
      }
      process.exit(code);
    },
    (error: unknown) => {
      console.log('failed.');
      console.error(`Could not run the build: ${(error as Error).message}`);
      process.exit(1);
    },
  );
}
