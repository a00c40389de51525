/**
 * Writes the owner's answers into cdk.json's "portfolio" block: only the changed keys' text is touched
 * (the rest of the file keeps its formatting, order and unknown keys), the result is validated with
 * parseConfig before anything is written, the change is shown as a diff, and the file is replaced in one
 * rename (an interrupted run leaves the old file or the new one, never half of it).
 */
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { CDK_JSON_FILE, CONFIG_CONTEXT_KEY, ConfigError, parseConfig, type PortfolioConfig } from '../../config/portfolio-config';

/** The file the scripts read: cdk.json, or PORTFOLIO_CDK_JSON (tests). */
export const cdkJsonFile = () => process.env.PORTFOLIO_CDK_JSON || CDK_JSON_FILE;

interface Member {
  key: string;
  keyStart: number;
  valueStart: number;
  valueEnd: number;
}

const ws = (t: string, i: number) => {
  while (i < t.length && /\s/.test(t[i]!)) i++;
  return i;
};
function stringEnd(t: string, i: number): number {
  for (i++; t[i] !== '"'; i++) if (t[i] === '\\') i++;
  return i + 1;
}
function valueEnd(t: string, i: number): number {
  if (t[i] === '"') return stringEnd(t, i);
  if (t[i] === '{' || t[i] === '[') {
    let depth = 0;
    for (; ; i++) {
      const c = t[i];
      if (c === '"') i = stringEnd(t, i) - 1;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) return i + 1;
    }
  }
  while (i < t.length && !/[\s,}\]]/.test(t[i]!)) i++;
  return i;
}
/** The members of the object whose "{" is at `open` (the text is valid JSON). */
function members(t: string, open: number): Member[] {
  const list: Member[] = [];
  let i = ws(t, open + 1);
  while (t[i] !== '}') {
    const keyStart = i;
    const keyEnd = stringEnd(t, i);
    const key = JSON.parse(t.slice(keyStart, keyEnd)) as string;
    const valueStart = ws(t, ws(t, keyEnd) + 1);
    const end = valueEnd(t, valueStart);
    list.push({ key, keyStart, valueStart, valueEnd: end });
    i = ws(t, end);
    if (t[i] === ',') i = ws(t, i + 1);
  }
  return list;
}

const indentAt = (t: string, i: number) => /[ \t]*$/.exec(t.slice(t.lastIndexOf('\n', i - 1) + 1, i))?.[0] ?? '';
const render = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replace(/\n/g, `\n${indent}`);

export interface BlockEdit {
  /** The new file text. */
  text: string;
  /** "- key: old" / "+ key: new" lines; empty when nothing changes. */
  diff: string[];
  /** The block after the change, checked. */
  config: PortfolioConfig;
}

/**
 * The file text with `changes` applied to context.portfolio (a key set to undefined is removed).
 * Throws ConfigError when the resulting block is invalid; the text is then not to be written.
 */
export function editPortfolioBlock(original: string, changes: Record<string, unknown>, overrides: Record<string, unknown> = {}): BlockEdit {
  let json: { context?: Record<string, unknown> };
  try {
    json = JSON.parse(original) as typeof json;
  } catch (error) {
    throw new ConfigError([`cdk.json cannot be read as JSON (${(error as Error).message})`]);
  }
  const block = json.context?.[CONFIG_CONTEXT_KEY];
  if (typeof block !== 'object' || block === null || Array.isArray(block)) {
    throw new ConfigError([`${CONFIG_CONTEXT_KEY}: missing; add a "${CONFIG_CONTEXT_KEY}" object to the "context" of cdk.json`]);
  }
  const before = block as Record<string, unknown>;
  const after: Record<string, unknown> = { ...before };
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined) delete after[key];
    else after[key] = value;
  }
  const config = parseConfig({ ...after, ...overrides });
  const changed = Object.keys(changes).filter((key) => !isDeepStrictEqual(before[key], after[key]));
  const diff: string[] = [];
  for (const key of changed) {
    if (key in before) diff.push(`- "${key}": ${JSON.stringify(before[key])}`);
    if (key in after) diff.push(`+ "${key}": ${JSON.stringify(after[key])}`);
  }
  if (changed.length === 0) return { text: original, diff, config };

  const top = members(original, ws(original, 0));
  const context = top.find((m) => m.key === 'context')!;
  const portfolio = members(original, context.valueStart).find((m) => m.key === CONFIG_CONTEXT_KEY)!;
  const own = members(original, portfolio.valueStart);
  const indent = own.length > 0 ? indentAt(original, own[0]!.keyStart) : `${indentAt(original, portfolio.keyStart)}  `;
  // Edits from the end of the text, so earlier offsets stay right.
  const edits: { start: number; end: number; text: string }[] = [];
  const added: string[] = [];
  for (const key of changed) {
    const member = own.find((m) => m.key === key);
    if (member && key in after) edits.push({ start: member.valueStart, end: member.valueEnd, text: render(after[key], indent) });
    else if (member) {
      // Removed with the separator before it (or, for the first member, the one after it).
      const index = own.indexOf(member);
      const [start, end] =
        index > 0
          ? [own[index - 1]!.valueEnd, member.valueEnd]
          : own.length > 1
            ? [member.keyStart, own[1]!.keyStart]
            : [portfolio.valueStart + 1, member.valueEnd];
      edits.push({ start, end, text: '' });
    } else added.push(`${JSON.stringify(key)}: ${render(after[key], indent)}`);
  }
  if (added.length > 0) {
    const last = own.at(-1);
    const at = last ? last.valueEnd : portfolio.valueStart + 1;
    const joined = added.map((line) => `\n${indent}${line}`).join(',');
    edits.push({ start: at, end: at, text: last ? `,${joined}` : `${joined}\n${indentAt(original, portfolio.keyStart)}` });
  }
  let text = original;
  for (const edit of edits.sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.text + text.slice(edit.end);
  // The edit must mean exactly the intended block, and nothing else in the file may change.
  const reread = JSON.parse(text) as { context: Record<string, unknown> };
  const expected = { ...json, context: { ...json.context, [CONFIG_CONTEXT_KEY]: after } };
  if (!isDeepStrictEqual(reread, expected)) throw new Error('cdk.json edit went wrong; nothing was written');
  return { text, diff, config };
}

/** Replaces the file in one rename. */
export function writeAtomically(file: string, text: string): void {
  const temporary = `${file}.setup-${process.pid}.tmp`;
  writeFileSync(temporary, text);
  renameSync(temporary, file);
}

export const readCdkJson = (file = cdkJsonFile()) => readFileSync(file, 'utf8');

/**
 * Whether cdk.json's block holds `key` at all: an answer setup asks for once is remembered there, so
 * an absent key means "not asked yet" and null or false means "asked, declined" (no local state file).
 */
export function portfolioBlockHas(key: string, file = cdkJsonFile()): boolean {
  const json = JSON.parse(readCdkJson(file)) as { context?: Record<string, unknown> };
  const block = json.context?.[CONFIG_CONTEXT_KEY];
  return typeof block === 'object' && block !== null && Object.hasOwn(block, key);
}
