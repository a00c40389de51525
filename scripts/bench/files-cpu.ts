/**
 * `npx tsx scripts/bench/files-cpu.ts [--runs N] -- <vitest arguments>`: runs `vitest run <arguments>`
 * (e.g. `--project browser e2e/routes.test.ts`) and prints the CPU seconds its whole process tree used:
 * Vitest, its workers, the browsers they start and the local stacks, by program as `bench:test-cpu` counts
 * them. Only that tree is counted, not the machine's other load, so a change to one test file can be
 * measured while other programs share the cores (`/usr/bin/time` would miss the browsers, which are not
 * waited for by Vitest's own process). With `--runs N` the run repeats and each run's total is printed.
 *
 * Like `bench:test-cpu` it samples /proc twice a second: a process that lives less than half a second is
 * missed (its CPU is in no figure here). After the runs it prints the host's pace (test-cpu.ts `hostPace`), so
 * figures taken on a slow host can be told apart. Linux only.
 */
import { spawn } from 'node:child_process';
import { cpuByProgram, hostPace, type ProcessSample, sampleProcesses } from './test-cpu';
import { runMain } from './shared';

async function measure(args: string[]): Promise<{ code: number; wall: number; totals: Map<string, number> }> {
  const started = Date.now();
  const child = spawn('npx', ['vitest', 'run', ...args], { stdio: 'inherit' });
  const inTree = new Set<number>([child.pid!]);
  const last = new Map<string, ProcessSample>();
  const sample = () => {
    const all = sampleProcesses();
    // Parents before children is not guaranteed: repeat until no new descendant is found.
    let grew = true;
    while (grew) {
      grew = false;
      for (const s of all.values()) {
        if (!inTree.has(s.pid) && inTree.has(s.ppid)) {
          inTree.add(s.pid);
          grew = true;
        }
      }
    }
    for (const [key, s] of all) if (inTree.has(s.pid)) last.set(key, s);
  };
  const sampler = setInterval(sample, 500);
  const code = await new Promise<number>((resolve) => child.on('exit', (status) => resolve(status ?? 1)));
  clearInterval(sampler);
  return { code, wall: (Date.now() - started) / 1000, totals: cpuByProgram(new Map(), last) };
}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  let runs = 1;
  const at = argv.indexOf('--runs');
  if (at >= 0) {
    runs = Number(argv[at + 1]);
    argv.splice(at, 2);
  }
  const args = argv[0] === '--' ? argv.slice(1) : argv;
  const results: number[] = [];
  let failed = 0;
  for (let run = 1; run <= runs; run++) {
    const { code, wall, totals } = await measure(args);
    if (code !== 0) failed++;
    const sum = [...totals.values()].reduce((a, b) => a + b, 0);
    results.push(sum);
    console.log(`\nrun ${run}: exit ${code}, ${wall.toFixed(0)} s wall, ${sum.toFixed(1)} CPU s in the tree:`);
    for (const [program, seconds] of [...totals].sort(([, a], [, b]) => b - a).filter(([, s]) => s >= 0.5)) {
      console.log(`  ${seconds.toFixed(1).padStart(7)}  ${program}`);
    }
  }
  const pace = hostPace();
  console.log(`\nCPU s per run: ${results.map((r) => r.toFixed(1)).join(', ')}; ${failed} failed`);
  console.log(`Host pace after them: ${pace.seconds.toFixed(2)} CPU s for the reference work, ${pace.ratio.toFixed(2)} × the usual.`);
  return failed > 0 ? 1 : 0;
}

runMain(main);
