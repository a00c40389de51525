/**
 * The origin check every API function makes first: a request must carry, in ORIGIN_VERIFY_HEADER, a
 * value CloudFront's viewer-request function put there (infra/cloudfront/api-origin.js, from the
 * distribution's key value store). The value is a random secret Secrets Manager keeps and the
 * rotation function (functions/origin-rotation) replaces on a schedule; it never appears in a
 * template, an environment variable, an output or a log. The functions accept every version that
 * may be in flight: AWSCURRENT, AWSPREVIOUS (edges still sending the old value) and AWSPENDING
 * (a rotation under way: CloudFront may already send it).
 */
import { timingSafeEqual } from 'node:crypto';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ORIGIN_SECRET_ENV, ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';
import { errorResponse, type HttpResult } from './http';

/** The Secrets Manager staging labels whose versions a request may carry. */
export const ACCEPTED_STAGES = ['AWSCURRENT', 'AWSPREVIOUS', 'AWSPENDING'] as const;

/** A value below this length is refused as a secret: it could be guessed. */
export const MIN_ORIGIN_SECRET_CHARS = 32;

/** Says whether a request came through CloudFront; never throws (a failed read refuses). */
export type OriginCheck = (event: APIGatewayProxyEventV2) => Promise<boolean>;

/** The part of SecretsManagerClient this module uses; a test passes a fake with the same shape. */
export interface SecretsManagerLike {
  send(command: GetSecretValueCommand, options?: { abortSignal?: AbortSignal }): Promise<{ SecretString?: string | undefined }>;
}

function sameValue(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

const isMissingVersion = (error: unknown) => (error as { name?: unknown } | null)?.name === 'ResourceNotFoundException';

/**
 * The accepted values, read from Secrets Manager: AWSCURRENT must be there; AWSPREVIOUS and
 * AWSPENDING exist only after a rotation or during one.
 */
export function secretsManagerOriginValues(client: SecretsManagerLike, secretId: string, timeoutMs: number): () => Promise<string[]> {
  return async () => {
    const values = await Promise.all(
      ACCEPTED_STAGES.map(async (stage) => {
        try {
          const output = await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionStage: stage }), {
            abortSignal: AbortSignal.timeout(timeoutMs),
          });
          return output.SecretString;
        } catch (error) {
          if (stage !== 'AWSCURRENT' && isMissingVersion(error)) return undefined;
          throw error;
        }
      }),
    );
    const accepted = values.filter((value): value is string => typeof value === 'string' && value.length >= MIN_ORIGIN_SECRET_CHARS);
    if (!values[0] || !accepted.includes(values[0])) throw new Error('The origin secret has no usable AWSCURRENT value');
    return accepted;
  };
}

export interface OriginCheckOptions {
  /** The accepted values; throws when they cannot be read. */
  load: () => Promise<string[]>;
  now: () => number;
  /** A value not among those known makes a fresh read only this long after the last (a rotation), never more often. */
  refreshMs?: number;
  /** Told once per failed read. */
  onError?: (error: unknown) => void;
}

/** Values are read on the first request and again, at most every refreshMs, when a request's value is unknown. */
export const ORIGIN_REFRESH_MS = 5_000;

/**
 * The check, with the values kept for the container's life: a rotation is seen as a value not yet
 * known, which makes one fresh read (at most every refreshMs, so a caller sending junk values costs
 * no more than one read per interval). Fails closed: no values, no request.
 */
export function createOriginCheck(options: OriginCheckOptions): OriginCheck {
  const refreshMs = options.refreshMs ?? ORIGIN_REFRESH_MS;
  let known: string[] = [];
  let readAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | undefined;
  const refresh = () => {
    pending ??= options
      .load()
      .then(
        (values) => {
          known = values;
        },
        (error: unknown) => options.onError?.(error),
      )
      .finally(() => {
        readAt = options.now();
        pending = undefined;
      });
    return pending;
  };
  return async (event) => {
    const raw: unknown = event?.headers?.[ORIGIN_VERIFY_HEADER];
    if (typeof raw !== 'string' || raw.length < MIN_ORIGIN_SECRET_CHARS || raw.length > 256) return false;
    const matches = () => known.some((value) => sameValue(raw, value));
    if (matches()) return true;
    if (pending) await pending;
    else if (options.now() - readAt >= refreshMs) await refresh();
    return matches();
  };
}

/** A fixed value (the local stack and tests). */
export function staticOriginCheck(value: string): OriginCheck {
  return createOriginCheck({ load: () => Promise.resolve([value]), now: Date.now });
}

const SECRETS_TIMEOUT_MS = 1_000;

/**
 * The check a function's environment asks for: the secret ORIGIN_SECRET_ARN names; in Lambda without
 * one, a check that refuses everything (fail closed: a function must never be open at execute-api);
 * outside Lambda without one (the local stack, where CDN and API are one server), none.
 */
export function originCheckFromEnv(
  env: NodeJS.ProcessEnv,
  onError: (error: unknown) => void,
  client?: SecretsManagerLike,
): OriginCheck | undefined {
  const secretId = env[ORIGIN_SECRET_ENV]?.trim();
  if (!secretId) {
    if (!env.AWS_LAMBDA_FUNCTION_NAME) return undefined;
    onError(new Error(`${ORIGIN_SECRET_ENV} is not set: every request is refused`));
    return () => Promise.resolve(false);
  }
  const secrets =
    client ??
    new SecretsManagerClient({
      maxAttempts: 2,
      requestHandler: { connectionTimeout: SECRETS_TIMEOUT_MS, requestTimeout: SECRETS_TIMEOUT_MS },
    });
  return createOriginCheck({ load: secretsManagerOriginValues(secrets, secretId, SECRETS_TIMEOUT_MS), now: Date.now, onError });
}

/** The answer to a request that did not come through CloudFront. */
export const ORIGIN_REFUSED = 'Send this request through the site, not to the API directly.';

export const originRefused = (): HttpResult => errorResponse(403, ORIGIN_REFUSED);
