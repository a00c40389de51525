import { describe, expect, it } from 'vitest';
import { UsageError } from './command';
import { parseFlags } from './flags';

const OPTIONS = { stage: { type: 'string' }, trial: { type: 'boolean' } } as const;

describe('parseFlags', () => {
  it('reads the known flags and the positionals', () => {
    expect(parseFlags(['show', '--stage=pr-7', 'abc'], OPTIONS, { positionals: true })).toEqual({
      values: { stage: 'pr-7' },
      positionals: ['show', 'abc'],
      rest: [],
    });
  });

  it('refuses a flag it does not know, listing the ones it does', () => {
    expect(() => parseFlags(['--trail'], OPTIONS)).toThrow(new UsageError('unknown option --trail (known: --stage NAME, --trial)'));
    expect(() => parseFlags(['word'], OPTIONS)).toThrow(UsageError);
    expect(() => parseFlags(['--stage'], OPTIONS)).toThrow(/--stage needs a value/);
  });

  it('with passThrough, keeps everything else as typed, for the CDK CLI', () => {
    expect(parseFlags(['--require-approval', 'never', '--stage', 'pr-7', '--trial', '-v'], OPTIONS, { passThrough: true })).toEqual({
      values: { stage: 'pr-7', trial: true },
      positionals: [],
      rest: ['--require-approval', 'never', '-v'],
    });
    expect(() => parseFlags(['--stage', '--trial'], OPTIONS, { passThrough: true })).toThrow(/--stage needs a value/);
  });
});
