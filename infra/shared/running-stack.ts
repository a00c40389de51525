/**
 * The running local stack's file. A local stack with an archive on disk (`npm start`, `npm run dev`)
 * writes it beside the archive's data folder (.local/archive → .local/archive.running.json) with its
 * process id and the archive's address, and removes it when it stops. It keeps a second stack off a
 * data folder in use (dynalite's database would be closed under it: "Database is closed"), naming the
 * other process, and tells `npm run messages -- --local` where the archive listens, whatever its port.
 * A file left by a stack that was killed names a process that is gone: it is ignored and replaced.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Where `npm start` keeps the archive (git ignores .local/). */
export const DEFAULT_ARCHIVE_DIR = '.local/archive';

/**
 * Where `npm start` keeps page views: one JSON line each, the fields the vitals function logs in
 * Lambda (`npm run visitors -- --local` reads it).
 */
export const DEFAULT_PAGE_VIEWS_FILE = '.local/page-views.jsonl';

export interface RunningStack {
  pid: number;
  /** The archive's DynamoDB endpoint, once it listens. */
  archive?: string;
  /** The archive's data folder (absolute). */
  dataDir: string;
  /** How the process was started ("scripts/start.ts"), for the owner reading an error. */
  command: string;
  startedAt: string;
}

export function runningFileFor(dataDir: string): string {
  const absolute = path.resolve(dataDir);
  return path.join(path.dirname(absolute), `${path.basename(absolute)}.running.json`);
}

/** Whether a process with this id exists (EPERM: it does, owned by another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readFile(file: string): RunningStack | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<RunningStack>;
    return Number.isInteger(parsed.pid) && typeof parsed.dataDir === 'string' ? (parsed as RunningStack) : undefined;
  } catch {
    return undefined; // missing, or cut short by a crash while writing
  }
}

/** The stack running on this data folder, if its process still exists. */
export function readRunningStack(dataDir: string): RunningStack | undefined {
  const found = readFile(runningFileFor(dataDir));
  return found && processAlive(found.pid) ? found : undefined;
}

export interface DataDirClaim {
  /** Records the archive's address once it listens. */
  record(fields: Pick<RunningStack, 'archive'>): void;
  /** Removes the file, if it is still this process's. */
  release(): void;
}

/**
 * Takes the data folder for this process, or throws one line naming the process that holds it. The
 * file is created exclusively, so of two stacks starting at once exactly one gets it.
 */
export function claimDataDir(dataDir: string, pid: number = process.pid): DataDirClaim {
  const file = runningFileFor(dataDir);
  const entry: RunningStack = {
    pid,
    dataDir: path.resolve(dataDir),
    command: path.relative(process.cwd(), process.argv[1] ?? '') || 'node',
    startedAt: new Date().toISOString(),
  };
  const write = (flag: 'w' | 'wx') => writeFileSync(file, `${JSON.stringify(entry)}\n`, { flag });
  mkdirSync(path.dirname(file), { recursive: true });
  try {
    write('wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const other = readFile(file);
    if (other && other.pid !== pid && processAlive(other.pid)) {
      const since = other.startedAt ? `, started ${other.startedAt.slice(0, 19).replace('T', ' ')} UTC` : '';
      throw new Error(
        `The archive folder ${entry.dataDir} is in use by another local stack (process ${other.pid}, ${other.command}${since}): ` +
          `stop it first, or set ARCHIVE_DIR to another folder.`,
      );
    }
    write('w'); // left by a stack that is gone
  }
  return {
    record(fields) {
      Object.assign(entry, fields);
      if (readFile(file)?.pid === pid) write('w');
    },
    release() {
      if (readFile(file)?.pid === pid) rmSync(file, { force: true });
    },
  };
}
