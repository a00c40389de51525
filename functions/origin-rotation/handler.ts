/**
 * Secrets Manager's rotation function for the origin secret (the value CloudFront sends the API in
 * ORIGIN_VERIFY_HEADER). Secrets Manager calls it four times per rotation, once per step ("Lambda
 * rotation functions", Secrets Manager User Guide:
 * https://docs.aws.amazon.com/secretsmanager/latest/userguide/rotate-secrets_lambda-functions.html):
 * - createSecret: a new random value, stored as the AWSPENDING version;
 * - setSecret: that value into CloudFront's key value store, which the viewer-request function reads
 *   (the API's functions already accept AWSPENDING, so requests carrying it pass at once);
 * - testSecret: the store holds it;
 * - finishSecret: AWSCURRENT moves to it; the old value becomes AWSPREVIOUS, still accepted while
 *   edges that have not seen the new value keep sending the old one.
 * The value is never logged, returned or put anywhere but the secret and the store.
 */
import { randomBytes } from 'node:crypto';
import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import {
  CloudFrontKeyValueStoreClient,
  DescribeKeyValueStoreCommand,
  GetKeyCommand,
  PutKeyCommand,
} from '@aws-sdk/client-cloudfront-keyvaluestore';
// The KeyValueStore API is signed with SigV4A; the SDK needs this package loaded for it.
import '@aws-sdk/signature-v4a';
import { ORIGIN_SECRET_KVS_KEY } from '../../contract/api-headers';
import { lazyHandler } from '../shared/entry';

export interface RotationEvent {
  Step: string;
  SecretId: string;
  ClientRequestToken: string;
}

/** The calls the rotation makes; tests pass fakes with the same shapes. */
export interface RotationDeps {
  secrets: Pick<SecretsManagerClient, 'send'>;
  store: Pick<CloudFrontKeyValueStoreClient, 'send'>;
  kvsArn: string;
  /** A new secret value. */
  newValue?: () => string;
}

/** 48 random bytes, URL-safe: 64 characters, far past guessing. */
export const newOriginValue = () => randomBytes(48).toString('base64url');

const isMissing = (error: unknown) => (error as { name?: unknown } | null)?.name === 'ResourceNotFoundException';

async function pendingValue(deps: RotationDeps, event: RotationEvent): Promise<string> {
  const output = await deps.secrets.send(
    new GetSecretValueCommand({ SecretId: event.SecretId, VersionId: event.ClientRequestToken, VersionStage: 'AWSPENDING' }),
  );
  if (!output.SecretString) throw new Error('The pending version of the origin secret is empty');
  return output.SecretString;
}

export async function rotate(event: RotationEvent, deps: RotationDeps): Promise<void> {
  const { SecretId: secretId, ClientRequestToken: token } = event;
  const described = await deps.secrets.send(new DescribeSecretCommand({ SecretId: secretId }));
  const stages = described.VersionIdsToStages?.[token];
  // Secrets Manager labels the rotation's version AWSPENDING before the first step.
  if (!stages) throw new Error('Secret version to rotate is unknown to the secret');
  if (stages.includes('AWSCURRENT')) return; // already finished
  if (!stages.includes('AWSPENDING')) throw new Error('Secret version to rotate is not AWSPENDING');
  switch (event.Step) {
    case 'createSecret': {
      try {
        await pendingValue(deps, event);
        return; // a retried step: the pending value exists
      } catch (error) {
        if (!isMissing(error)) throw error;
      }
      await deps.secrets.send(
        new PutSecretValueCommand({
          SecretId: secretId,
          ClientRequestToken: token,
          SecretString: (deps.newValue ?? newOriginValue)(),
          VersionStages: ['AWSPENDING'],
        }),
      );
      return;
    }
    case 'setSecret': {
      const value = await pendingValue(deps, event);
      const { ETag } = await deps.store.send(new DescribeKeyValueStoreCommand({ KvsARN: deps.kvsArn }));
      await deps.store.send(new PutKeyCommand({ KvsARN: deps.kvsArn, Key: ORIGIN_SECRET_KVS_KEY, Value: value, IfMatch: ETag }));
      return;
    }
    case 'testSecret': {
      const value = await pendingValue(deps, event);
      const stored = await deps.store.send(new GetKeyCommand({ KvsARN: deps.kvsArn, Key: ORIGIN_SECRET_KVS_KEY }));
      if (stored.Value !== value) throw new Error("CloudFront's key value store does not hold the pending origin secret");
      return;
    }
    case 'finishSecret': {
      const current = Object.entries(described.VersionIdsToStages ?? {}).find(([, labels]) => labels.includes('AWSCURRENT'))?.[0];
      await deps.secrets.send(
        new UpdateSecretVersionStageCommand({
          SecretId: secretId,
          VersionStage: 'AWSCURRENT',
          MoveToVersionId: token,
          ...(current && current !== token ? { RemoveFromVersionId: current } : {}),
        }),
      );
      return;
    }
    default:
      throw new Error(`Unknown rotation step: ${String(event.Step).slice(0, 40)}`);
  }
}

function createRotationHandlerFromEnv(): (event: RotationEvent) => Promise<void> {
  const kvsArn = process.env.ORIGIN_KVS_ARN;
  if (!kvsArn) throw new Error('ORIGIN_KVS_ARN is not set');
  const deps: RotationDeps = { secrets: new SecretsManagerClient({}), store: new CloudFrontKeyValueStoreClient({}), kvsArn };
  return (event) => rotate(event, deps);
}

/** The Lambda entry point (functions/shared/entry.ts). */
export const handler = lazyHandler(createRotationHandlerFromEnv);
