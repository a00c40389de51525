/**
 * Stand-ins for Google's scripts, so no test ever reaches Google: served by a local HTTPS server
 * (startFakeGoogle) that the browsers reach in Google's place, through Chromium's host mapping
 * (browser.ts) or the engines' proxy (engines/network.ts). Both are plain browser scripts, sent as text.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAKE_RECAPTCHA_JS } from '../../tools/fake-recaptcha';

/** react-google-recaptcha loads exactly this (node_modules/react-google-recaptcha/lib/esm/recaptcha-wrapper.js). */
export const RECAPTCHA_SCRIPT_URL = 'https://www.google.com/recaptcha/api.js?onload=onloadcallback&render=explicit';
/** react-ga4 loads https://www.googletagmanager.com/gtag/js?id=<measurement id>. */
export const GTAG_SCRIPT_PATTERN = /^https:\/\/www\.googletagmanager\.com\/gtag\/js\?id=/;
export const RECAPTCHA_SCRIPT_PATTERN = /^https:\/\/www\.google\.com\/recaptcha\/api\.js(\?|$)/;
/** The hosts the fake scripts are served for. */
export const FAKE_HOSTS = ['www.google.com', 'www.googletagmanager.com'] as const;

// The fake reCAPTCHA api.js is shared with `LOCAL_CAPTCHA=fake npm start` (tools/fake-recaptcha.ts).
export { FAKE_CAPTCHA_LABEL, FAKE_RECAPTCHA_JS } from '../../tools/fake-recaptcha';

/**
 * A fake gtag.js: records that it loaded (window.__fakeGtag) and leaves window.dataLayer, which
 * react-ga4 fills with every gtag(...) call, for the tests to read. It sends nothing anywhere.
 */
export const FAKE_GTAG_JS = String.raw`(function () {
  window.dataLayer = window.dataLayer || [];
  window.__fakeGtag = { loaded: true, src: document.currentScript ? document.currentScript.src : '', at: Date.now() };
})();`;

export interface Fakes {
  /** Serve the fake reCAPTCHA api.js (default true). */
  fakeRecaptcha: boolean;
  /** Serve the fake gtag.js (default true). */
  fakeGtag: boolean;
}

/** The fake script for a URL, or undefined when none is served for it. */
export function fakeScriptFor(url: string, fakes: Fakes = { fakeRecaptcha: true, fakeGtag: true }): string | undefined {
  if (fakes.fakeRecaptcha && RECAPTCHA_SCRIPT_PATTERN.test(url)) return FAKE_RECAPTCHA_JS;
  if (fakes.fakeGtag && GTAG_SCRIPT_PATTERN.test(url)) return FAKE_GTAG_JS;
  return undefined;
}

let certificate: { key: string; cert: string } | undefined;
/** A throwaway self-signed certificate for the fake hosts, made with openssl once per process. */
export function selfSignedCertificate(): { key: string; cert: string } {
  if (certificate) return certificate;
  const dir = mkdtempSync(join(tmpdir(), 'e2e-cert-'));
  try {
    const key = join(dir, 'key.pem');
    const cert = join(dir, 'cert.pem');
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
        '-keyout',
        key,
        '-out',
        cert,
        '-subj',
        '/CN=e2e fake Google',
        '-addext',
        `subjectAltName=${[...FAKE_HOSTS.map((h) => `DNS:${h}`), 'IP:127.0.0.1'].join(',')}`,
      ],
      { stdio: 'ignore' },
    );
    certificate = { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
    return certificate;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface FakeGoogle {
  readonly port: number;
  stop(): Promise<void>;
}

/**
 * An HTTPS server on 127.0.0.1 answering as Google's script hosts: `answer` gets each request (its
 * URL, method and body) and returns the script to send, or undefined for a 404.
 */
export async function startFakeGoogle(answer: (url: string, method: string, body: string) => string | undefined): Promise<FakeGoogle> {
  const server = https.createServer(selfSignedCertificate(), (request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', `https://${request.headers.host ?? 'unknown'}`).toString();
      const fake = answer(url, request.method ?? 'GET', Buffer.concat(chunks).toString('utf8'));
      if (fake === undefined) response.writeHead(404, { 'content-type': 'text/plain' }).end('blocked by the e2e network');
      else response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' }).end(fake);
    });
  });
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    stop() {
      for (const socket of sockets) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
