/**
 * aws-sdk-client-mock's stub of an SDK client class, taken off again when the file (or the describe block
 * it is made in) ends. The stub replaces `send` for every instance of the class in the process, and the
 * node tests share their worker processes (vitest.config.ts: no isolation), so a stub left behind would
 * answer another file's real clients, pointed at the fake AWS.
 */
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll } from 'vitest';

export const mockAwsClient: typeof mockClient = (client) => {
  const stub = mockClient(client);
  afterAll(() => {
    stub.restore();
  });
  return stub;
};
