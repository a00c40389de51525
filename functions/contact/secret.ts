/**
 * The reCAPTCHA secret: read from an SSM SecureString once per cold start and kept in memory.
 * Concurrent first requests share one read; a failed read is not cached, so the next request
 * tries again instead of failing until the next cold start.
 *
 * Why not Powertools Parameters: its SSMProvider caches for a max age (5 s by default) rather than
 * for the cold start, takes no per-call deadline (the read must fit the request's budget, so it is
 * aborted after CONTACT_TIMEOUTS_MS.ssm), and wants a real SSMClient where the tests pass a fake.
 * These twenty lines do exactly the three things needed: decrypt, keep, never keep a failure.
 */
import { GetParameterCommand } from '@aws-sdk/client-ssm';

export interface SecretProvider {
  getSecret(): Promise<string>;
}

/** The part of SSMClient this module uses; a test passes a fake with the same shape. */
export interface SsmLike {
  send(
    command: GetParameterCommand,
    options?: { abortSignal?: AbortSignal },
  ): Promise<{ Parameter?: { Value?: string | undefined } | undefined }>;
}

export function staticSecret(value: string): SecretProvider {
  return { getSecret: () => Promise.resolve(value) };
}

export function cachedSecret(load: () => Promise<string>): SecretProvider {
  let value: string | undefined;
  let pending: Promise<string> | undefined;
  return {
    getSecret() {
      if (value !== undefined) return Promise.resolve(value);
      if (!pending) {
        pending = load().then(
          (loaded) => {
            value = loaded;
            pending = undefined;
            return loaded;
          },
          (error: unknown) => {
            pending = undefined;
            throw error;
          },
        );
      }
      return pending;
    },
  };
}

export class SecretUnavailableError extends Error {
  constructor(reason: string, options?: { cause?: unknown }) {
    super(reason, options);
    this.name = 'SecretUnavailableError';
  }
}

/** Reads the SecureString, decrypted, within timeoutMs (the read must not eat the request's budget). */
export function ssmSecret(ssm: SsmLike, parameterName: string, timeoutMs: number): SecretProvider {
  return cachedSecret(async () => {
    let output;
    try {
      output = await ssm.send(new GetParameterCommand({ Name: parameterName, WithDecryption: true }), {
        abortSignal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new SecretUnavailableError('The reCAPTCHA secret could not be read from SSM', { cause: error });
    }
    const secret = output.Parameter?.Value?.trim();
    if (!secret) throw new SecretUnavailableError('The reCAPTCHA secret parameter is empty');
    return secret;
  });
}
