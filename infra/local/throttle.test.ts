/** The local route throttle: API Gateway's token bucket, with the stack's numbers (contract/limits.ts). */
import { describe, expect, it } from 'vitest';
import { ROUTE_THROTTLES } from '../../contract/limits';
import { ROUTE_THROTTLES as STACK_THROTTLES } from '../lib/http-api';
import { createRouteThrottle } from './api-gateway';

describe('createRouteThrottle', () => {
  it('takes the burst at once, then refills at the rate, never above the burst', () => {
    let now = 0;
    const take = createRouteThrottle({ rateLimit: 10, burstLimit: 20 }, () => now);
    const burst = Array.from({ length: 25 }, () => take());
    expect(burst.filter(Boolean)).toHaveLength(20);
    now += 500; // half a second: 5 tokens
    expect(Array.from({ length: 8 }, () => take()).filter(Boolean)).toHaveLength(5);
    now += 60_000; // a long pause refills to the burst only
    expect(Array.from({ length: 30 }, () => take()).filter(Boolean)).toHaveLength(20);
  });

  it('the local stack and the CDK stack read the same numbers', () => {
    expect(STACK_THROTTLES).toBe(ROUTE_THROTTLES);
    // The benchmark's flood (4 a second from one address) stays under the contact bucket, so the per-address limit sorts it.
    expect(ROUTE_THROTTLES.contact.rateLimit).toBeGreaterThan(4);
  });
});
