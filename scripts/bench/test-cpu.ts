/**
 * `npm run bench:test-cpu [-- vitest arguments]`: runs `npm test` and prints where its CPU time went, by
 * program (each browser engine and Chromium's process types, the Vitest workers, the local stacks, the
 * site builds, the type-check, ESLint), beside the run's wall time and how busy the machine's cores were.
 * On a machine whose cores are busy throughout, the wall time can only fall with the CPU time, so this is
 * the figure to work from (docs/testing.md, "How long npm test takes"). Linux only: it reads /proc.
 *
 * Every process's user and system time is sampled twice a second; a process that lives less than half a
 * second is missed and shows in "not attributed" (the cores' busy time less the sum), with the kernel's
 * own threads and any other load of the machine.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';
import { runMain } from './shared';

/** One process as /proc shows it: its name, command line and CPU seconds so far (user + system). */
export interface ProcessSample {
  comm: string;
  cmdline: string;
  cpu: number;
}

/** The program a process counts under. */
export function programOf({ comm, cmdline }: Pick<ProcessSample, 'comm' | 'cmdline'>): string {
  // Chromium starts its network service as /proc/self/exe.
  if (
    comm === 'chromium' ||
    /^\/usr\/lib\/chromium\//.test(cmdline) ||
    (cmdline.startsWith('/proc/self/exe ') && cmdline.includes('--type='))
  ) {
    return `Chromium: ${/--type=(\S+)/.exec(cmdline)?.[1] ?? 'browser'}`;
  }
  if (comm === 'firefox-esr' || /^\/usr\/lib\/firefox(-esr)?\//.test(cmdline)) return 'Firefox';
  if (/^(WebKit|MiniBrowser)/.test(comm) || cmdline.includes('/webkit2gtk-')) return 'WebKit';
  if (comm === 'Xvfb') return "Xvfb (WebKit's display)";
  if (comm === 'esbuild') return 'esbuild (transforms, bundling)';
  if (cmdline === '') return "the kernel's threads";
  if (cmdline.includes('vitest/suppress-warnings.cjs')) return "Vitest workers (the tests, Playwright's client)";
  if (cmdline.includes('vitest.mjs')) return 'Vitest main process';
  if (cmdline.includes('react-router build')) return 'site builds';
  if (/(^|\/)tsc /.test(`${cmdline} `)) return 'type-check (tsc -b)';
  if (/(^|\/)eslint /.test(`${cmdline} `)) return 'ESLint';
  if (cmdline.includes('local-stack-process')) return 'local stacks of the browser tests';
  if (comm === 'node' || comm === 'MainThread' || /(^|\/)(node|npm|tsx) /.test(`${cmdline} `))
    return 'other Node programs (npm, tsx, those tests start)';
  return comm;
}

/** Adds, per program, what each process used since `before` (all of it for a process started since) up to its last sample. */
export function cpuByProgram(before: ReadonlyMap<string, ProcessSample>, last: ReadonlyMap<string, ProcessSample>): Map<string, number> {
  const totals = new Map<string, number>();
  for (const [key, sample] of last) {
    const used = sample.cpu - (before.get(key)?.cpu ?? 0);
    if (used <= 0) continue;
    const program = programOf(sample);
    totals.set(program, (totals.get(program) ?? 0) + used);
  }
  return totals;
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on Linux's common builds

/** A process as /proc shows it, with its place in the process tree. */
export interface TreeSample extends ProcessSample {
  pid: number;
  ppid: number;
}

/** Every process now, keyed by pid and start time (a pid reused by a new process is a new key). */
export function sampleProcesses(): Map<string, TreeSample> {
  const found = new Map<string, TreeSample>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const comm = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
      // cpu: its own time plus that of its waited-for children that ended between samples.
      const cpu = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      found.set(`${pid}@${fields[19]}`, { pid: Number(pid), ppid: Number(fields[1]), comm, cmdline, cpu });
    } catch {
      // The process ended while being read.
    }
  }
  return found;
}

/** The cores' busy time so far, in CPU seconds (/proc/stat: all but idle and iowait). */
function busySeconds(): number {
  const [, ...values] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const [user, nice, system, , , irq, softirq, steal] = values.map(Number);
  return (user! + nice! + system! + irq! + softirq! + steal!) / TICKS_PER_SECOND;
}

/**
 * CPU seconds of one core that deflating 8 MiB of generated text four times took on this 2-core machine
 * at its usual pace (2026-12-06, the machine idle: 1.21 to 1.26 s in six tries, on the day `npm test`
 * took 511 s on a fresh clone).
 */
export const REFERENCE_PACE_SECONDS = 1.24;

/** Eight MiB of text made of words drawn by a fixed linear congruential sequence: the same bytes on every run. */
function referenceWork(): Buffer {
  const words = 'the quick brown fox jumps over a lazy dog while page views count once'.split(' ');
  const parts: string[] = [];
  let length = 0;
  for (let seed = 1; length < 8 << 20;) {
    seed = (seed * 1_103_515_245 + 12_345) & 0x7fffffff;
    const word = `${words[seed % words.length]}${seed % 7 ? ' ' : '\n'}`;
    parts.push(word);
    length += word.length;
  }
  return Buffer.from(parts.join(''));
}

/**
 * How fast this host's cores run now: the CPU seconds a fixed piece of work takes (the median of three
 * tries), and that as a multiple of REFERENCE_PACE_SECONDS. The host runs slower at times, every program
 * needing more CPU time for the same work (once a quarter more); a figure measured then says so.
 */
export function hostPace(work = referenceWork()): { seconds: number; ratio: number } {
  const tries = [0, 1, 2].map(() => {
    const before = process.cpuUsage();
    for (let i = 0; i < 4; i++) deflateSync(work, { level: 6 });
    const used = process.cpuUsage(before);
    return (used.user + used.system) / 1e6;
  });
  const seconds = tries.sort((a, b) => a - b)[1]!;
  return { seconds, ratio: seconds / REFERENCE_PACE_SECONDS };
}

const paceFigure = ({ seconds, ratio }: { seconds: number; ratio: number }) => `${seconds.toFixed(2)} CPU s (${ratio.toFixed(2)} ×)`;

async function main(): Promise<number> {
  if (process.platform !== 'linux') {
    console.error('bench:test-cpu reads /proc: it runs on Linux only.');
    return 2;
  }
  const work = referenceWork();
  const paceBefore = hostPace(work);
  const ownBefore = process.cpuUsage();
  const before = sampleProcesses();
  const last = new Map(before);
  const started = Date.now();
  const busyBefore = busySeconds();
  const sampler = setInterval(() => {
    for (const [key, sample] of sampleProcesses()) last.set(key, sample);
  }, 500);
  const test = spawn('npm', ['test', '--', ...process.argv.slice(2)], { stdio: 'inherit' });
  const code = await new Promise<number>((resolve) => test.on('exit', (status) => resolve(status ?? 1)));
  clearInterval(sampler);
  const wall = (Date.now() - started) / 1000;
  const busy = busySeconds() - busyBefore;
  const own = process.cpuUsage(ownBefore);
  const paceAfter = hostPace(work);

  const totals = [...cpuByProgram(before, last)].sort(([, a], [, b]) => b - a);
  const attributed = totals.reduce((sum, [, seconds]) => sum + seconds, 0);
  const cores = cpus().length;
  console.log(
    `\nnpm test: exit ${code}, ${wall.toFixed(0)} s on ${cores} cores; the cores were busy ${busy.toFixed(0)} CPU s of ${(wall * cores).toFixed(0)} (${((100 * busy) / (wall * cores)).toFixed(0)} %).`,
  );
  console.log(
    `Host pace, the reference work's CPU time against the usual ${REFERENCE_PACE_SECONDS} s: ${paceFigure(paceBefore)} before, ${paceFigure(paceAfter)} after.`,
  );
  console.log('CPU seconds by program:');
  for (const [program, seconds] of totals.filter(([, s]) => s >= 1)) {
    console.log(`  ${seconds.toFixed(0).padStart(6)}  ${((100 * seconds) / busy).toFixed(0).padStart(3)} %  ${program}`);
  }
  console.log(
    `  ${(busy - attributed).toFixed(0).padStart(6)}  ${((100 * (busy - attributed)) / busy).toFixed(0).padStart(3)} %  not attributed (short-lived processes, interrupts, other load; this sampler ${((own.user + own.system) / 1e6).toFixed(0)} s)`,
  );
  return code;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runMain(main);
}
