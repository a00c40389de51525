// CloudFront Function (cloudfront-js-2.0), viewer request of the /api/* behavior: puts the origin
// secret, read from the distribution's key value store, in the header the API's functions check, so
// the value is never in the distribution's configuration or any template (the store holds it; the
// rotation function functions/origin-rotation writes it). A viewer's own copy of the header is
// always removed first; with no value in the store, none is sent and the API refuses the request.
// The header name and store key must match contract/api-headers.ts (ORIGIN_VERIFY_HEADER,
// ORIGIN_SECRET_KVS_KEY); infra/cloudfront/api-origin.test.ts checks both.
import cf from 'cloudfront';

const store = cf.kvs();

async function handler(event) {
  const request = event.request;
  delete request.headers['x-portfolio-origin'];
  // No value yet (before the first rotation finished): the request goes on without one, and is refused.
  if (await store.exists('origin-secret')) {
    request.headers['x-portfolio-origin'] = { value: await store.get('origin-secret') };
  }
  return request;
}
