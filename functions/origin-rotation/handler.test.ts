/**
 * The origin secret's rotation, step by step against fakes of Secrets Manager and CloudFront's key
 * value store: a new random value, put in the store before it becomes current, the old one kept as
 * AWSPREVIOUS, retried steps harmless, the value never logged.
 */
import { describe, expect, it, vi } from 'vitest';
import { ORIGIN_SECRET_KVS_KEY } from '../../contract/api-headers';
import { newOriginValue, rotate, type RotationDeps } from './handler';

interface Version {
  value: string | undefined;
  stages: string[];
}

/** Secrets Manager's versions and staging labels, as far as the rotation uses them. */
function fakeWorld(initial = 'initial-value-'.padEnd(64, 'x')) {
  const versions = new Map<string, Version>([['v0', { value: initial, stages: ['AWSCURRENT'] }]]);
  const kvs = new Map<string, string>();
  let etag = 1;
  const label = (stage: string, to: string) => {
    for (const version of versions.values()) version.stages = version.stages.filter((s) => s !== stage);
    versions.get(to)!.stages.push(stage);
  };
  const secrets = {
    send: vi.fn((command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const input = command.input;
      switch (command.constructor.name) {
        case 'DescribeSecretCommand':
          return Promise.resolve({ VersionIdsToStages: Object.fromEntries([...versions].map(([id, v]) => [id, [...v.stages]])) });
        case 'GetSecretValueCommand': {
          const version = versions.get(String(input.VersionId));
          if (!version?.value || !version.stages.includes(String(input.VersionStage))) {
            return Promise.reject(Object.assign(new Error('missing'), { name: 'ResourceNotFoundException' }));
          }
          return Promise.resolve({ SecretString: version.value });
        }
        case 'PutSecretValueCommand':
          versions.set(String(input.ClientRequestToken), { value: String(input.SecretString), stages: ['AWSPENDING'] });
          return Promise.resolve({});
        case 'UpdateSecretVersionStageCommand': {
          const from = input.RemoveFromVersionId as string | undefined;
          label('AWSCURRENT', String(input.MoveToVersionId));
          if (from) label('AWSPREVIOUS', from);
          versions.get(String(input.MoveToVersionId))!.stages = versions
            .get(String(input.MoveToVersionId))!
            .stages.filter((s) => s !== 'AWSPENDING');
          return Promise.resolve({});
        }
      }
      return Promise.reject(new Error(`unexpected ${command.constructor.name}`));
    }),
  };
  const store = {
    send: vi.fn((command: { constructor: { name: string }; input: Record<string, unknown> }) => {
      const input = command.input;
      switch (command.constructor.name) {
        case 'DescribeKeyValueStoreCommand':
          return Promise.resolve({ ETag: String(etag) });
        case 'PutKeyCommand':
          if (input.IfMatch !== String(etag)) return Promise.reject(Object.assign(new Error('stale'), { name: 'ConflictException' }));
          kvs.set(String(input.Key), String(input.Value));
          etag++;
          return Promise.resolve({ ETag: String(etag) });
        case 'GetKeyCommand':
          return kvs.has(String(input.Key))
            ? Promise.resolve({ Value: kvs.get(String(input.Key)) })
            : Promise.reject(Object.assign(new Error('no key'), { name: 'ResourceNotFoundException' }));
      }
      return Promise.reject(new Error(`unexpected ${command.constructor.name}`));
    }),
  };
  const deps = { secrets, store, kvsArn: 'arn:aws:cloudfront::111111111111:key-value-store/x' } as unknown as RotationDeps;
  /** What RotateSecret does before calling the function: a version labelled AWSPENDING, without a value. */
  const start = (token: string) => versions.set(token, { value: undefined, stages: ['AWSPENDING'] });
  return { versions, kvs, deps, start };
}

const steps = ['createSecret', 'setSecret', 'testSecret', 'finishSecret'];

describe('origin secret rotation', () => {
  it('makes a new random value, puts it in the store, then makes it current; the old one stays as AWSPREVIOUS', async () => {
    const world = fakeWorld();
    const log = vi.spyOn(console, 'log');
    world.start('v1');
    for (const Step of steps) await rotate({ Step, SecretId: 's', ClientRequestToken: 'v1' }, world.deps);
    const v1 = world.versions.get('v1')!;
    expect(v1.stages).toEqual(['AWSCURRENT']);
    expect(v1.value).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(world.versions.get('v0')!.stages).toEqual(['AWSPREVIOUS']);
    expect(world.kvs.get(ORIGIN_SECRET_KVS_KEY)).toBe(v1.value);
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
    // A second rotation: a different value; the first becomes previous.
    world.start('v2');
    for (const Step of steps) await rotate({ Step, SecretId: 's', ClientRequestToken: 'v2' }, world.deps);
    expect(world.versions.get('v2')!.value).not.toBe(v1.value);
    expect(world.versions.get('v1')!.stages).toEqual(['AWSPREVIOUS']);
    expect(world.kvs.get(ORIGIN_SECRET_KVS_KEY)).toBe(world.versions.get('v2')!.value);
  });

  it('a retried step changes nothing; testSecret fails when the store does not hold the value; unknown steps fail', async () => {
    const world = fakeWorld();
    world.start('v1');
    await rotate({ Step: 'createSecret', SecretId: 's', ClientRequestToken: 'v1' }, world.deps);
    const value = world.versions.get('v1')!.value;
    await rotate({ Step: 'createSecret', SecretId: 's', ClientRequestToken: 'v1' }, world.deps);
    expect(world.versions.get('v1')!.value).toBe(value);
    await expect(rotate({ Step: 'testSecret', SecretId: 's', ClientRequestToken: 'v1' }, world.deps)).rejects.toThrow();
    await expect(rotate({ Step: 'other', SecretId: 's', ClientRequestToken: 'v1' }, world.deps)).rejects.toThrow(/Unknown rotation step/);
    await expect(rotate({ Step: 'setSecret', SecretId: 's', ClientRequestToken: 'nope' }, world.deps)).rejects.toThrow(/unknown/);
  });

  it('new values are 64 URL-safe characters, each different', () => {
    const values = new Set(Array.from({ length: 100 }, newOriginValue));
    expect(values.size).toBe(100);
  });
});
