/**
 * A trace-based measure of main-thread blocking, beside Lighthouse's TBT: from the trace of
 * Lighthouse's own (unthrottled, 1×) page load, each top-level main-thread task after First
 * Contentful Paint, by its CPU time (the trace's thread duration, `tdur`). Lighthouse's mobile
 * simulation multiplies CPU work by 4 (its default cpuSlowdownMultiplier), so a task of t ms at 1×
 * counts max(0, 4·t − 50) ms toward a phone's blocking time: no task over 12.5 ms keeps it at 0.
 * A Playwright trace would not do: its CDP session adds its own main-thread work (about 55 ms of
 * CollectSourcePositions), so only Lighthouse's (or a raw DevTools) trace is read here.
 */
import { TraceProcessor } from 'lighthouse/core/lib/tracehouse/trace-processor.js';

/** Lighthouse's default mobile CPU slowdown (throttling.mobileSlow4G.cpuSlowdownMultiplier: @paulirish/trace_engine's lantern/simulation/Constants.js, which lighthouse/core/config/constants.js uses). */
export const CPU_SLOWDOWN = 4;
/** A task longer than this (ms, as the phone runs it) blocks: the Long Tasks threshold TBT counts from. */
export const BLOCKING_THRESHOLD_MS = 50;
/**
 * Lighthouse warns that the machine is slower than it expects below this benchmarkIndex
 * (SLOW_CPU_BENCHMARK_INDEX_THRESHOLD in lighthouse/core/gather/driver/environment.js, 13.5.0; see
 * https://github.com/GoogleChrome/lighthouse/blob/main/docs/throttling.md#cpu-throttling): a run
 * measured below it was taken on a busy (or weak) machine and is reported apart, not in the median.
 */
export const BUSY_BENCHMARK_INDEX = 1000;

export interface TaskAfterFcp {
  /** Start, ms after the navigation's time origin. */
  startMs: number;
  /** CPU time on the main thread at 1×, ms. */
  cpuMs: number;
  /** Wall time, ms: more than the CPU time when the machine's other work took the core meanwhile. */
  wallMs: number;
}

export interface Blocking {
  /** The longest task after FCP, ms of CPU at 1×. */
  longestTaskMs: number;
  /** Σ max(0, 4·task − 50) over the tasks after FCP, ms: the blocking time those tasks make on the simulated phone. */
  simulatedBlockingMs: number;
  /** The longest task after FCP by wall time, ms (what Lighthouse's simulation starts from). */
  longestWallMs: number;
  tasks: number;
}

/** The measure from a page load's tasks. */
export function blockingOf(tasks: readonly TaskAfterFcp[]): Blocking {
  let longest = 0;
  let longestWall = 0;
  let blocking = 0;
  for (const task of tasks) {
    longest = Math.max(longest, task.cpuMs);
    longestWall = Math.max(longestWall, task.wallMs);
    blocking += Math.max(0, CPU_SLOWDOWN * task.cpuMs - BLOCKING_THRESHOLD_MS);
  }
  return {
    longestTaskMs: Math.round(longest * 10) / 10,
    simulatedBlockingMs: Math.round(blocking),
    longestWallMs: Math.round(longestWall * 10) / 10,
    tasks: tasks.length,
  };
}

interface TraceEvent {
  name: string;
  ts: number;
  dur?: number;
  tdur?: number;
}

/** A Lighthouse trace as Lighthouse's own trace processing reads it (the page's main thread found): read once, by every figure below. */
export type ProcessedTrace = ReturnType<typeof TraceProcessor.processTrace>;

export function processTrace(trace: { traceEvents: unknown[] }): ProcessedTrace {
  return TraceProcessor.processTrace(trace as never);
}

/** The top-level main-thread tasks after FCP in a processed Lighthouse trace. */
export function tasksAfterFcp(processed: ProcessedTrace): TaskAfterFcp[] {
  const navigation = TraceProcessor.processNavigation(processed);
  const fcpMs = navigation.timings.firstContentfulPaint;
  const origin = processed.timeOriginEvt.ts;
  const tasks: TaskAfterFcp[] = [];
  for (const event of processed.mainThreadEvents as TraceEvent[]) {
    if (!TraceProcessor.isScheduleableTask(event as never) || !event.dur) continue;
    const startMs = (event.ts - origin) / 1000;
    if (startMs < fcpMs) continue;
    tasks.push({ startMs, cpuMs: (event.tdur ?? event.dur) / 1000, wallMs: event.dur / 1000 });
  }
  return tasks;
}

/**
 * The page's navigation commit task (the one that runs DocumentLoader::CommitNavigation: creating
 * the window's script context and starting the parser), by CPU and by wall time, or undefined when
 * the trace has none. It comes before any of the page's own code, on every page, a blank one too;
 * Lighthouse's simulation scales its wall time, so when the machine's other work stretches it, it
 * becomes the "Unattributable" long task.
 */
export function commitTaskOf(processed: ProcessedTrace): { cpuMs: number; wallMs: number } | undefined {
  const events = processed.mainThreadEvents as TraceEvent[];
  // The new renderer commits an empty initial document first (about 1 ms): the page's is the longest.
  const commit = events
    .filter((event) => event.name === 'DocumentLoader::CommitNavigation' && event.dur !== undefined)
    .reduce<TraceEvent | undefined>((longest, event) => (longest && longest.dur! >= event.dur! ? longest : event), undefined);
  if (!commit) return undefined;
  const task = events.find(
    (event) =>
      TraceProcessor.isScheduleableTask(event as never) &&
      event.dur !== undefined &&
      event.ts <= commit.ts &&
      commit.ts < event.ts + event.dur,
  );
  if (!task?.dur) return undefined;
  const round = (us: number) => Math.round(us / 100) / 10;
  return { cpuMs: round(task.tdur ?? task.dur), wallMs: round(task.dur) };
}

/** A task Lighthouse's TBT counts, as its long-tasks audit lists it. */
export interface LongTask {
  /** The script the task is attributed to, or the page, or "Unattributable" (parsing, style, layout). */
  url: string;
  /** Start and duration as Lighthouse times them: on the simulated phone in simulated mode. */
  startMs: number;
  durationMs: number;
}

/**
 * The tasks behind Lighthouse's TBT, from its report's long-tasks audit, longest first: which work
 * a miss comes from. In simulated mode Lighthouse scales each task's wall time (not its CPU time)
 * by the slowdown, so a task the machine's other work stretched shows here and not in the CPU figures.
 */
export function longTasksOf(lhr: { audits: Record<string, { details?: unknown } | undefined> }): LongTask[] {
  const items =
    (lhr.audits['long-tasks']?.details as { items?: { url?: string; startTime?: number; duration?: number }[] } | undefined)?.items ?? [];
  return items
    .map((item) => ({ url: item.url ?? '', startMs: Math.round(item.startTime ?? 0), durationMs: Math.round(item.duration ?? 0) }))
    .sort((a, b) => b.durationMs - a.durationMs);
}
