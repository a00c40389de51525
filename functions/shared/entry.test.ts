import { describe, expect, it, vi } from 'vitest';
import { lazyHandler } from './entry';

describe('lazyHandler', () => {
  it('makes the handler on the first invocation, not before, and only once', async () => {
    const make = vi.fn(() => async (event: { n: number }) => event.n * 2);
    const handler = lazyHandler(make);
    expect(make).not.toHaveBeenCalled();
    expect(await handler({ n: 2 })).toBe(4);
    expect(await handler({ n: 5 })).toBe(10);
    expect(make).toHaveBeenCalledTimes(1);
  });

  it('tries again on the next invocation when making it threw (a missing variable is reported each time)', () => {
    let calls = 0;
    const handler = lazyHandler(() => {
      calls += 1;
      throw new Error('ORIGIN_KVS_ARN is not set');
    });
    expect(() => handler()).toThrow('ORIGIN_KVS_ARN is not set');
    expect(() => handler()).toThrow('ORIGIN_KVS_ARN is not set');
    expect(calls).toBe(2);
  });
});
