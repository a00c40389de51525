/**
 * Just enough Content-Security-Policy to judge a served page from outside: parse the header, match
 * a URL against a directive's sources, and find a page's inline scripts with the hashes a browser
 * would compute for them.
 */
import { createHash } from 'node:crypto';

export type Policy = Map<string, string[]>;

export function parseCsp(header: string): Policy {
  const policy: Policy = new Map();
  for (const part of header.split(';')) {
    const [name, ...sources] = part.trim().split(/\s+/);
    // The first occurrence of a directive wins; later duplicates are ignored, as browsers do.
    if (name && !policy.has(name.toLowerCase())) policy.set(name.toLowerCase(), sources);
  }
  return policy;
}

const FALLBACKS: Record<string, string[]> = {
  'script-src': ['script-src', 'default-src'],
  'frame-src': ['frame-src', 'child-src', 'default-src'],
  'connect-src': ['connect-src', 'default-src'],
  'img-src': ['img-src', 'default-src'],
};

/** The sources in force for a directive (its own, or the one it falls back to); undefined: no limit. */
export function effectiveSources(policy: Policy, directive: string): string[] | undefined {
  for (const name of FALLBACKS[directive] ?? [directive, 'default-src']) {
    const sources = policy.get(name);
    if (sources) return sources;
  }
  return undefined;
}

function matchesSource(source: string, url: URL, selfOrigin: string): boolean {
  const s = source.toLowerCase();
  if (s === "'self'") return url.origin === selfOrigin;
  if (s === '*') return url.protocol === 'http:' || url.protocol === 'https:';
  if (/^[a-z][a-z0-9+.-]*:$/.test(s)) return url.protocol === s;
  if (s.startsWith("'")) return false; // keywords, hashes, nonces: not URL sources
  const m = /^(?:([a-z][a-z0-9+.-]*):\/\/)?(\*|(?:\*\.)?[a-z0-9.-]+)(?::(\d+|\*))?(\/.*)?$/.exec(s);
  if (!m) return false;
  const [, scheme, host, port, path] = m;
  if (scheme ? `${scheme}:` !== url.protocol : url.protocol !== 'https:') return false;
  const urlHost = url.hostname.toLowerCase();
  if (host === '*') {
    // any host
  } else if (host!.startsWith('*.')) {
    if (!urlHost.endsWith(host!.slice(1))) return false;
  } else if (host !== urlHost) return false;
  if (port && port !== '*' && port !== (url.port || (url.protocol === 'https:' ? '443' : '80'))) return false;
  if (path && path !== '/') return path.endsWith('/') ? url.pathname.startsWith(path) : url.pathname === path;
  return true;
}

/** Whether the policy lets the page at selfOrigin use `url` for `directive` (script-src, frame-src …). */
export function allows(policy: Policy, directive: string, url: string, selfOrigin: string): boolean {
  const sources = effectiveSources(policy, directive);
  if (!sources) return true;
  const target = new URL(url);
  return sources.some((source) => matchesSource(source, target, selfOrigin));
}

export interface InlineScript {
  /** The type attribute ("" when absent). */
  type: string;
  /** 'sha256-<base64>' of the text between the tags, as a browser hashes it. */
  hash: string;
  length: number;
}

// Types a browser runs (or, for import maps and speculation rules, treats as inline script for CSP).
const EXECUTABLE_TYPES = new Set(['', 'module', 'importmap', 'speculationrules', 'text/javascript', 'application/javascript']);

/** The page's inline scripts that CSP governs (no src; an executable type; not empty), in document order. */
export function inlineScripts(html: string): InlineScript[] {
  const scripts: InlineScript[] = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
    const attributes = m[1] ?? '';
    if (/\ssrc\s*=/i.test(` ${attributes}`)) continue;
    const type = (/\btype\s*=\s*["']?([^"'\s>]*)/i.exec(attributes)?.[1] ?? '').toLowerCase();
    if (!EXECUTABLE_TYPES.has(type)) continue;
    const text = m[2] ?? '';
    // An inline script with no text never runs, so CSP never judges it (the build leaves such
    // placeholders where it moved a page's scripts into files).
    if (text === '') continue;
    scripts.push({ type, hash: `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`, length: text.length });
  }
  return scripts;
}

/** The inline scripts a policy does not admit (hash not in script-src; 'unsafe-inline' only counts without hashes). */
export function unadmittedScripts(policy: Policy, scripts: InlineScript[]): InlineScript[] {
  const sources = effectiveSources(policy, 'script-src');
  if (!sources) return [];
  const hashes = new Set(sources.filter((s) => /^'sha(256|384|512)-/i.test(s)).map((s) => s.slice(1, -1)));
  const hasNonceOrHash = hashes.size > 0 || sources.some((s) => /^'nonce-/i.test(s));
  const unsafeInline = sources.includes("'unsafe-inline'") && !hasNonceOrHash;
  return unsafeInline ? [] : scripts.filter((s) => !hashes.has(s.hash));
}
