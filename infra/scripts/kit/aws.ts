/**
 * The one way the owner's commands build an AWS SDK client, and the error checks they share.
 * Retry policy, the same for every client: the SDK's "standard" mode with its three attempts (a
 * throttled or 5xx answer is retried with backoff; a refusal is not), which the owner may change
 * for a run with AWS_MAX_ATTEMPTS / AWS_RETRY_MODE as for any AWS tool. Stated at
 * https://docs.aws.amazon.com/sdkref/latest/guide/feature-retry-behavior.html ("standard – Makes three attempts").
 */
export interface ClientOptions {
  region: string;
  /** A local stand-in (dynalite for `npm run messages -- --local`). */
  endpoint?: string;
  credentials?: { accessKeyId: string; secretAccessKey: string };
}

type ClientClass<C> = new (config: ClientOptions) => C;

export function awsClient<C>(Client: ClientClass<C>, options: ClientOptions): C {
  // The SDK's notice about the Node version on the owner's laptop says nothing about the site.
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
  // No maxAttempts or retryMode here: the SDK's own default (or the owner's AWS_MAX_ATTEMPTS) applies.
  return new Client(options);
}

/** The SDK error's name ("ValidationError", "NoSuchBucket"), or "" for anything else. */
export function errorName(error: unknown): string {
  return (error as { name?: string })?.name ?? '';
}

/** "Name: message", for a line that reports an unexpected answer. */
export function errorText(error: unknown): string {
  const e = error as { name?: string; message?: string };
  return `${e?.name || 'Error'}: ${e?.message ?? String(error)}`;
}

/** The SDK found no credentials anywhere (environment, profile, SSO, instance metadata). */
export function isNoCredentials(error: unknown): boolean {
  return errorName(error) === 'CredentialsProviderError' || /could not load credentials/i.test(errorText(error));
}

/** CloudFormation's answer for an unknown stack: a ValidationError "Stack with id X does not exist". */
export function isStackMissing(error: unknown): boolean {
  return errorName(error) === 'ValidationError' && /does not exist/i.test(errorText(error));
}

/** What a read-only command (messages, visitors) says for an AWS problem, in its own words where they differ. */
export interface AwsProblemWording {
  /** The sentence after "No AWS credentials found: …": where the command's --local copy is read instead. */
  local: string;
  /** What a ResourceNotFoundException means for this command; undefined: left unexplained. */
  notFound?: string;
}

/**
 * One line for the AWS errors the owner can act on (no credentials, a missing resource, a refusal);
 * undefined for an unexpected one, which the command then reports as it is.
 */
export function explainAwsProblem(error: unknown, wording: AwsProblemWording): string | undefined {
  if (isNoCredentials(error)) {
    return `No AWS credentials found: run \`aws configure\` (access key) or \`aws configure sso\` and \`export AWS_PROFILE=<profile>\`. ${wording.local}`;
  }
  if (errorName(error) === 'ResourceNotFoundException' && wording.notFound) return wording.notFound;
  if (/AccessDenied|UnrecognizedClient|ExpiredToken|InvalidClientTokenId/.test(errorName(error))) {
    return `AWS refused the request (${errorName(error)}): use the credentials you deploy with (AWS_PROFILE).`;
  }
  return undefined;
}
