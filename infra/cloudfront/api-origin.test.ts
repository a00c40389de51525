/**
 * The /api/* viewer-request function (api-origin.js), run in a Node vm with a stand-in for
 * CloudFront's `cloudfront` module: it sets the origin header from the key value store, always drops
 * the viewer's own copy, and sends none while the store holds no value.
 */
import { readFileSync } from 'node:fs';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_KVS_KEY, ORIGIN_VERIFY_HEADER } from '../../contract/api-headers';
import { API_ORIGIN_FUNCTION_FILE } from '../lib/origin-secret';

type Headers = Record<string, { value: string }>;
type Handler = (event: { request: { headers: Headers } }) => Promise<{ headers: Headers }>;

/** The function's code with its one import replaced by a store over `values`. */
function load(values: Record<string, string>): Handler {
  const code = readFileSync(API_ORIGIN_FUNCTION_FILE, 'utf8');
  const importLine = "import cf from 'cloudfront';";
  expect(code).toContain(importLine);
  const store = {
    exists: (key: string) => Promise.resolve(key in values),
    get: (key: string) => (key in values ? Promise.resolve(values[key]) : Promise.reject(new Error('KeyNotFound'))),
  };
  const context = vm.createContext({ cf: { kvs: () => store } });
  new vm.Script(`${code.replace(importLine, '')}\nthis.handler = handler;`).runInContext(context);
  return (context as { handler: Handler }).handler;
}

describe('api-origin.js', () => {
  it('uses the header and key the API functions read', () => {
    const code = readFileSync(API_ORIGIN_FUNCTION_FILE, 'utf8');
    expect(code).toContain(`'${ORIGIN_VERIFY_HEADER}'`);
    expect(code).toContain(`'${ORIGIN_SECRET_KVS_KEY}'`);
  });

  it("sets the store's value, replacing whatever the viewer sent", async () => {
    const handler = load({ [ORIGIN_SECRET_KVS_KEY]: 's'.repeat(64) });
    const out = await handler({ request: { headers: { [ORIGIN_VERIFY_HEADER]: { value: 'forged' }, host: { value: 'x' } } } });
    expect(out.headers[ORIGIN_VERIFY_HEADER]).toEqual({ value: 's'.repeat(64) });
    expect(out.headers.host).toEqual({ value: 'x' });
  });

  it('sends no header at all while the store is empty, even one the viewer sent', async () => {
    const handler = load({});
    const out = await handler({ request: { headers: { [ORIGIN_VERIFY_HEADER]: { value: 'forged' } } } });
    expect(out.headers[ORIGIN_VERIFY_HEADER]).toBeUndefined();
  });
});
