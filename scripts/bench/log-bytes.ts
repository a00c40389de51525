/**
 * What each API handler writes to its log per request, measured: the handler as Lambda builds it
 * (Powertools' Logger and its EMF metrics on stdout, the same factories as the handler modules), one
 * request, every byte written to stdout counted. The logged-bytes test holds these to the figures
 * docs/deploy.md uses; the cost benchmark prints them. Lambda's own START/END/REPORT lines are not
 * here: the stack sets the functions' system log level to WARN, which drops them.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { handler as eventsHandler } from '../../functions/events/handler';
import { handler as vitalsHandler } from '../../functions/vitals/handler';
import { createContactHandler, DEFAULT_TIMEOUTS } from '../../functions/contact/flow';
import { staticSecret } from '../../functions/contact/secret';
import { createLogger, createMetricsSink } from '../../functions/shared/observability';
import { apiEvent, lambdaContext } from '../../functions/shared/test-support';

export interface Logged {
  bytes: number;
  lines: number;
}

/** Runs `fn` with stdout captured (and not shown); returns what it wrote. */
async function captured(fn: () => Promise<unknown>): Promise<Logged> {
  const chunks: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return true;
  }) as typeof process.stdout.write;
  try {
    await fn();
  } finally {
    process.stdout.write = write;
  }
  const text = chunks.join('');
  return { bytes: Buffer.byteLength(text), lines: text.split('\n').filter(Boolean).length };
}

const json = (path: string, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyEventV2 =>
  apiEvent({
    path,
    body: JSON.stringify(body),
    headers: { 'content-type': 'application/json', ...headers },
    requestId: 'Jq1Xb2cDoAMEb0Q=',
  });

/** The beacons' Lambda entry points themselves; the contact function as its entry point wires it (clients.ts), with fakes for Google and SES. */
function handlers() {
  const events = eventsHandler;
  const vitals = vitalsHandler;
  const contact = createContactHandler({
    config: { ownerEmail: 'owner@example.com', senderEmail: 'portfolio@example.com', verifyUrl: 'https://verify.example.test/siteverify' },
    secret: staticSecret('secret'),
    ses: { send: () => Promise.resolve({ MessageId: 'message-1' }) },
    fetch: () =>
      Promise.resolve(
        new Response(JSON.stringify({ success: true, hostname: 'example.test' }), { headers: { 'content-type': 'application/json' } }),
      ),
    now: () => Date.now(),
    timeouts: DEFAULT_TIMEOUTS,
    logger: createLogger('contact'),
    metrics: createMetricsSink('contact'),
  });
  return { events, vitals, contact };
}

const CONTACT = {
  fullName: 'Jane Doe',
  email: 'jane@example.com',
  message: 'Hello, I would like to talk about a project.',
  'g-recaptcha-response': 'token-abc123',
};
const VIEW = {
  route: '/projects/:projectId',
  lang: 'en',
  device: 'desktop',
  nav: 'client',
  lcp: 1200,
  inp: 40,
  cls: 0.01,
  fcp: 800,
  ttfb: 120,
};

/** Bytes and lines each handler writes for a normal request and for a refused (400) one. */
export async function measureLoggedBytes(): Promise<Record<'contact' | 'events' | 'vitals', { normal: Logged; refused: Logged }>> {
  const h = handlers();
  const ctx = lambdaContext('6f1c2d3e-4b5a-4c6d-8e7f-0a1b2c3d4e5f');
  const run = (handler: (e: APIGatewayProxyEventV2, c: typeof ctx) => Promise<unknown>, event: APIGatewayProxyEventV2) =>
    captured(() => handler(event, ctx));
  return {
    contact: {
      normal: await run(h.contact, json('/api/contact', CONTACT)),
      refused: await run(h.contact, json('/api/contact', { fullName: 'x' })),
    },
    events: {
      normal: await run(h.events, json('/api/events', { name: 'HOME_EXPLORE_PROJECTS_CLICK' })),
      refused: await run(h.events, json('/api/events', { name: 'lower case' })),
    },
    vitals: {
      normal: await run(h.vitals, json('/api/vitals', VIEW)),
      refused: await run(h.vitals, json('/api/vitals', { ...VIEW, route: '/nope/3' })),
    },
  };
}
