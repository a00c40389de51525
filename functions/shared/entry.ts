/**
 * Every Lambda entry point's one shape: `export const handler = lazyHandler(createXFromEnv)`. The
 * environment is read, and the AWS clients and Powertools objects made, on the first invocation, never
 * at import (a test or the bundle check loads the module with no environment), then kept for the
 * container's life, so each client is made once.
 */
export function lazyHandler<Args extends unknown[], Result>(make: () => (...args: Args) => Result): (...args: Args) => Result {
  let made: ((...args: Args) => Result) | undefined;
  return (...args) => {
    made ??= make();
    return made(...args);
  };
}
