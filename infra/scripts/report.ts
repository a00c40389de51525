/**
 * The result table the owner's tools (doctor, smoke) print: one line per check, ✓ / ✗ / ! / – and
 * what was found, and under a failure the exact command or console step that fixes it.
 */
export type Status = 'pass' | 'fail' | 'warn' | 'skip';

export interface CheckResult {
  /** Short name of what was checked, e.g. "SES sender". */
  check: string;
  status: Status;
  /** What was found, one line. */
  detail: string;
  /** For fail / warn: the command or console step that fixes it. */
  fix?: string;
}

/** A row; `fix` only when given. */
export const row = (check: string, status: Status, detail: string, fix?: string): CheckResult => ({
  check,
  status,
  detail,
  ...(fix ? { fix } : {}),
});

/** A read that failed (or was refused): the fix names the call these credentials need. */
export const unreadable = (check: string, detail: string, action: string, status: Status = 'fail'): CheckResult =>
  row(check, status, detail, `Let these credentials call ${action}, then \`npm run doctor\` again.`);

const MARK: Record<Status, string> = { pass: '✓', fail: '✗', warn: '!', skip: '–' };

/** The table as text, plus a closing summary line. */
export function formatTable(results: readonly CheckResult[], title: string): string {
  const width = Math.max(...results.map((r) => r.check.length), 5);
  const lines = [title];
  for (const r of results) {
    lines.push(`${MARK[r.status]} ${r.check.padEnd(width)}  ${r.detail}`);
    if (r.fix && r.status !== 'pass') {
      for (const fixLine of r.fix.split('\n')) lines.push(`  ${' '.repeat(width)}  → ${fixLine}`);
    }
  }
  const failed = results.filter((r) => r.status === 'fail').length;
  const warned = results.filter((r) => r.status === 'warn').length;
  lines.push(
    failed === 0
      ? `All ${results.length} checks passed${warned ? ` (${warned} warning${warned > 1 ? 's' : ''})` : ''}.`
      : `${failed} of ${results.length} checks failed.`,
  );
  return lines.join('\n');
}

/** 0 when nothing failed (warnings and skips do not fail), else 1. */
export function exitCode(results: readonly CheckResult[]): number {
  return results.some((r) => r.status === 'fail') ? 1 : 0;
}
