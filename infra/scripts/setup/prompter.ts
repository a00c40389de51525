/**
 * The questions `npm run setup` asks, behind one interface: the terminal (@clack/prompts) for a person,
 * a scripted one for the tests. Every question has a stable id, so a test answers by id and an
 * unexpected question fails it. A secret is read masked and returned to the caller only: no prompter
 * echoes, logs or stores it. Colours: @clack/prompts draws through picocolors, which turns them off
 * when the output is not a terminal or NO_COLOR is set; setup's own lines carry none.
 */
import * as clack from '@clack/prompts';

export interface Question {
  /** Stable id, e.g. "owner-email"; the flag of the same name answers it without a terminal. */
  id: string;
  message: string;
}
export interface TextQuestion extends Question {
  initial?: string;
  /** An error text for a value that will not do, else undefined. */
  validate?: (value: string) => string | undefined;
}
export interface SelectQuestion<T extends string> extends Question {
  options: { value: T; label: string }[];
  initial?: T;
}

export interface Prompter {
  text(q: TextQuestion): Promise<string>;
  /** Read masked; never shown, logged or written anywhere by setup. */
  secret(q: TextQuestion): Promise<string>;
  confirm(q: Question & { initial?: boolean }): Promise<boolean>;
  select<T extends string>(q: SelectQuestion<T>): Promise<T>;
}

/** The owner pressed Ctrl-C (or Esc) at a question: nothing of that step was written. */
export class Cancelled extends Error {
  constructor(readonly questionId: string) {
    super(`cancelled at "${questionId}": nothing of this step was written; run npm run setup again to continue`);
    this.name = 'Cancelled';
  }
}

function answered<T>(id: string, value: T | symbol): T {
  if (clack.isCancel(value)) throw new Cancelled(id);
  return value as T;
}

/** The terminal prompter. */
export const terminalPrompter: Prompter = {
  async text(q) {
    return answered<string>(
      q.id,
      await clack.text({ message: q.message, initialValue: q.initial, validate: (v) => q.validate?.(v ?? '') }),
    );
  },
  async secret(q) {
    return answered<string>(q.id, await clack.password({ message: q.message, validate: (v) => q.validate?.(v ?? '') }));
  },
  async confirm(q) {
    return answered<boolean>(q.id, await clack.confirm({ message: q.message, initialValue: q.initial ?? true }));
  },
  async select<T extends string>(q: SelectQuestion<T>) {
    const options = q.options.map((o) => ({ value: o.value, label: o.label })) as Parameters<typeof clack.select<T>>[0]['options'];
    return answered<T>(q.id, await clack.select<T>({ message: q.message, options, initialValue: q.initial }));
  },
};

/** What a scripted prompter answers: a value per question id (a list: one per time the id is asked). */
export type Script = Record<string, string | boolean | typeof CANCEL | (string | boolean | typeof CANCEL)[]>;
/** Answer a question with this to act as Ctrl-C there. */
export const CANCEL = Symbol('cancel');

/**
 * A prompter that answers from a script, for the tests: an id the script does not hold fails, a value
 * the question's validate refuses fails, and `asked` lists the ids in order.
 */
export function scriptedPrompter(script: Script): Prompter & { asked: string[] } {
  const used = new Map<string, number>();
  const asked: string[] = [];
  const next = (q: Question): string | boolean => {
    asked.push(q.id);
    if (!(q.id in script)) throw new Error(`unexpected question "${q.id}" (${q.message})`);
    const entry = script[q.id]!;
    const n = used.get(q.id) ?? 0;
    used.set(q.id, n + 1);
    const value = Array.isArray(entry) ? entry[n] : entry;
    if (value === undefined) throw new Error(`question "${q.id}" asked more often than scripted`);
    if (value === CANCEL) throw new Cancelled(q.id);
    return value;
  };
  const textual = (q: TextQuestion) => {
    const value = String(next(q));
    const problem = q.validate?.(value);
    if (problem) throw new Error(`scripted answer to "${q.id}" refused: ${problem}`);
    return value;
  };
  return {
    asked,
    text: async (q) => textual(q),
    secret: async (q) => textual(q),
    confirm: async (q) => next(q) === true,
    select: async <T extends string>(q: SelectQuestion<T>) => {
      const value = String(next(q)) as T;
      if (!q.options.some((o) => o.value === value)) throw new Error(`scripted answer to "${q.id}" is not an option: ${value}`);
      return value;
    },
  };
}
