import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { WebDriverError, WebDriverSession } from './webdriver';

// A stand-in for WebKitWebDriver: it never answers a script that asks it to stall, and answers any
// other command at once, as the real driver does after a command that stalled was given up.
const held: ServerResponse[] = [];
const server = createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    if (body.includes('stall')) return void held.push(response);
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ value: `${request.method} ${request.url}` }));
  });
});
const listening = new Promise<string>((resolve) =>
  server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
);
afterAll(() => {
  for (const response of held) response.destroy();
  server.close();
});

describe('a WebDriver command with no answer', () => {
  it('fails within the command limit, naming itself, and the next command of the session is answered', async () => {
    const session = new WebDriverSession(await listening, 's1', 300);
    const started = Date.now();
    const stalled = await session.execute('stall').catch((error: unknown) => error);
    expect(stalled).toBeInstanceOf(WebDriverError);
    expect((stalled as WebDriverError).error).toBe('timeout');
    expect((stalled as Error).message).toBe('WebDriver timeout: POST /execute/sync had no answer from WebKitWebDriver within 0.3 s');
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await session.currentUrl()).toBe('GET /session/s1/url');
  });
});
