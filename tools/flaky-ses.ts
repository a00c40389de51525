/**
 * An SES stand-in that fails when told to, in front of the real mailbox: each SendEmail is either
 * answered with an SES error (as SES v1's query API writes it) or passed on to aws-ses-v2-local.
 * For the tests and the benchmark: SES throttled, refusing or down, on an ephemeral port.
 */
import { once } from 'node:events';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import getRawBody from 'raw-body';

/** What to do with the n-th SendEmail (from 1): pass it on, or answer with this SES error code. */
export type SesDecision = 'pass' | 'Throttling' | 'MessageRejected' | 'ServiceUnavailable';

export interface FlakySes {
  url: string;
  /** Requests seen and failed so far. */
  seen: number;
  failed: number;
  decide: (n: number) => SesDecision;
  stop(): Promise<void>;
}

const STATUS: Record<Exclude<SesDecision, 'pass'>, number> = { Throttling: 400, MessageRejected: 400, ServiceUnavailable: 503 };

export async function startFlakySes(targetUrl: string, decide: (n: number) => SesDecision): Promise<FlakySes> {
  const target = new URL(targetUrl);
  const server = createServer(async (req, res) => {
    const body = await getRawBody(req);
    const decision = flaky.decide(++flaky.seen);
    if (decision !== 'pass') {
      flaky.failed += 1;
      const xml = `<ErrorResponse xmlns="http://ses.amazonaws.com/doc/2010-12-01/"><Error><Type>${decision === 'ServiceUnavailable' ? 'Receiver' : 'Sender'}</Type><Code>${decision}</Code><Message>${decision} (injected)</Message></Error><RequestId>flaky-${flaky.seen}</RequestId></ErrorResponse>`;
      res.writeHead(STATUS[decision], { 'content-type': 'text/xml' }).end(xml);
      return;
    }
    const forward = request(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers: { ...req.headers, host: target.host } },
      (upstream) => {
        res.writeHead(upstream.statusCode ?? 502, upstream.headers);
        upstream.pipe(res);
      },
    );
    forward.on('error', () => res.writeHead(502).end());
    forward.end(body);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const flaky: FlakySes = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: 0,
    failed: 0,
    decide,
    stop: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return flaky;
}
