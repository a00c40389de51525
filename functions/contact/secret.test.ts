import { GetParameterCommand } from '@aws-sdk/client-ssm';
import { describe, expect, it } from 'vitest';
import { cachedSecret, SecretUnavailableError, ssmSecret, type SsmLike } from './secret';

/** A stand-in SSM client: records each GetParameter and answers with the next scripted reply. */
function fakeSsm(replies: (() => Promise<{ Parameter?: { Value?: string } }>)[]) {
  const calls: { input: GetParameterCommand['input']; signal?: AbortSignal }[] = [];
  const ssm: SsmLike = {
    send(command, options) {
      calls.push({ input: command.input, signal: options?.abortSignal });
      const reply = replies.shift();
      return reply ? reply() : Promise.reject(new Error('no scripted reply'));
    },
  };
  return { ssm, calls };
}

describe('ssmSecret', () => {
  it('reads the SecureString decrypted, once, and serves later calls from memory', async () => {
    const { ssm, calls } = fakeSsm([() => Promise.resolve({ Parameter: { Value: ' the-secret\n' } })]);
    const secret = ssmSecret(ssm, '/portfolio/recaptcha', 1_000);
    expect(await secret.getSecret()).toBe('the-secret');
    expect(await secret.getSecret()).toBe('the-secret');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.input).toEqual({ Name: '/portfolio/recaptcha', WithDecryption: true });
    expect(calls[0]!.signal).toBeInstanceOf(AbortSignal);
  });

  it('shares one read between concurrent first callers', async () => {
    const { ssm, calls } = fakeSsm([() => new Promise((resolve) => setTimeout(() => resolve({ Parameter: { Value: 'v' } }), 20))]);
    const secret = ssmSecret(ssm, 'p', 1_000);
    expect(await Promise.all([secret.getSecret(), secret.getSecret(), secret.getSecret()])).toEqual(['v', 'v', 'v']);
    expect(calls).toHaveLength(1);
  });

  it('does not cache a failed read: the next call tries again', async () => {
    const { ssm, calls } = fakeSsm([
      () => Promise.reject(Object.assign(new Error('nope'), { name: 'AccessDeniedException' })),
      () => Promise.resolve({ Parameter: { Value: 'v' } }),
    ]);
    const secret = ssmSecret(ssm, 'p', 1_000);
    await expect(secret.getSecret()).rejects.toBeInstanceOf(SecretUnavailableError);
    expect(await secret.getSecret()).toBe('v');
    expect(calls).toHaveLength(2);
  });

  it('treats an empty parameter as unavailable', async () => {
    const { ssm } = fakeSsm([() => Promise.resolve({ Parameter: { Value: '  ' } }), () => Promise.resolve({})]);
    const secret = ssmSecret(ssm, 'p', 1_000);
    await expect(secret.getSecret()).rejects.toThrow('empty');
    await expect(secret.getSecret()).rejects.toThrow('empty');
  });

  it('gives the read a timeout signal of its own', async () => {
    const { ssm, calls } = fakeSsm([
      () =>
        new Promise((_resolve, reject) => {
          calls[0]!.signal!.addEventListener('abort', () => reject(calls[0]!.signal!.reason));
        }),
    ]);
    const started = Date.now();
    await expect(ssmSecret(ssm, 'p', 50).getSecret()).rejects.toBeInstanceOf(SecretUnavailableError);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('cachedSecret', () => {
  it('calls the loader only until it succeeds', async () => {
    let calls = 0;
    const secret = cachedSecret(async () => {
      calls += 1;
      if (calls < 3) throw new Error('not yet');
      return 'ok';
    });
    await expect(secret.getSecret()).rejects.toThrow();
    await expect(secret.getSecret()).rejects.toThrow();
    expect(await secret.getSecret()).toBe('ok');
    expect(await secret.getSecret()).toBe('ok');
    expect(calls).toBe(3);
  });
});
