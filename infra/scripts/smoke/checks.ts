/**
 * `npm run smoke -- URL`: an outside-in check of a live site, over plain HTTP requests. It reads
 * nothing of this repository's build, so it judges any deployment (or `npm start`) as a visitor's
 * browser meets it. It changes nothing: the only writes are a malformed contact request (refused
 * before any captcha or mail) and one click event named SMOKE_CHECK (counted under "other").
 */
import { FIXED_ROUTES, REDIRECT_ROUTE, REDIRECT_TARGET } from '../../../contract/site-routes';
import { type CheckResult, row } from '../report';
import { allows, inlineScripts, parseCsp, unadmittedScripts, type Policy } from './csp';

/** The click event the smoke check sends: well formed, in no catalog, so the dashboard counts it as "other". */
export const SMOKE_EVENT_NAME = 'SMOKE_CHECK';
const TIMEOUT_MS = 15_000;

/**
 * Sample URLs of the third parties the pages load (reCAPTCHA v2 and GA4), as their CSP guides name them
 * (sources beside THIRD_PARTY_SOURCES in infra/shared/security-headers.ts).
 */
export const THIRD_PARTY_PROBES = [
  { what: 'captcha script', directive: 'script-src', url: 'https://www.google.com/recaptcha/api.js' },
  { what: 'captcha script', directive: 'script-src', url: 'https://www.gstatic.com/recaptcha/releases/smoke/recaptcha__en.js' },
  { what: 'captcha frame', directive: 'frame-src', url: 'https://www.google.com/recaptcha/api2/anchor' },
  { what: 'analytics script', directive: 'script-src', url: 'https://www.googletagmanager.com/gtag/js?id=G-SMOKE' },
  { what: 'analytics collect', directive: 'connect-src', url: 'https://region1.google-analytics.com/g/collect' },
] as const;

interface Answer {
  status: number;
  headers: Headers;
  body: string;
}

/** The base URL without trailing slash; refuses anything but http(s). */
export function normalizeBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`"${raw}" is not a URL: give the site's address, e.g. https://www.example.dev`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`"${raw}" is not an http(s) URL`);
  return `${url.origin}${url.pathname.replace(/\/+$/, '')}`;
}

async function request(url: string, init: RequestInit = {}): Promise<Answer> {
  const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(TIMEOUT_MS), ...init });
  return { status: response.status, headers: response.headers, body: await response.text() };
}

function titleOf(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return (m?.[1] ?? '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .trim();
}

/** Same-origin script files a page loads or preloads: the 404 page must load the same app as /home. */
function appScripts(html: string): Set<string> {
  const found = new Set<string>();
  for (const m of html.matchAll(/(?:src|href)=["'](\/[^"']+\.m?js)["']|import\s*["'](\/[^"']+\.m?js)["']/g)) {
    found.add((m[1] ?? m[2])!);
  }
  return found;
}

/** fetch's own message is "fetch failed": the cause says why (ECONNREFUSED, ENOTFOUND, a timeout). */
function reason(error: unknown): string {
  const e = error as { message?: string; cause?: { code?: string; message?: string } };
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error);
}

const short = (text: string, max = 48) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
const isRedirect = (status: number) => [301, 302, 303, 307, 308].includes(status);
const isHtml = (a: Answer) => /text\/html/i.test(a.headers.get('content-type') ?? '');

/** The paths of the site's sitemap.xml, whatever host its canonical URLs name. */
export function sitemapPaths(xml: string): string[] {
  const paths: string[] = [];
  for (const m of xml.matchAll(/<loc>\s*([^<\s]+)\s*<\/loc>/g)) {
    try {
      const path = new URL(m[1]!.replace(/&amp;/g, '&')).pathname.replace(/(.)\/+$/, '$1');
      if (!paths.includes(path)) paths.push(path);
    } catch {
      // not a URL: reported through the count below
    }
  }
  return paths;
}

interface PageResult {
  path: string;
  answer?: Answer;
  error?: string;
  title: string;
}

function cspOf(answer: Answer | undefined): Policy | undefined {
  const header = answer?.headers.get('content-security-policy');
  return header ? parseCsp(header) : undefined;
}

/** The page's inline scripts against its own CSP: "" when every one is admitted, else the problem. */
function inlineScriptProblem(answer: Answer): { problem: string; count: number } {
  const scripts = inlineScripts(answer.body);
  const policy = cspOf(answer);
  if (!policy)
    return {
      problem: scripts.length ? `no CSP header (${scripts.length} inline scripts unguarded)` : 'no CSP header',
      count: scripts.length,
    };
  const refused = unadmittedScripts(policy, scripts);
  if (refused.length === 0) return { problem: '', count: scripts.length };
  return {
    problem: `${refused.length} of ${scripts.length} inline scripts not admitted by script-src (${refused.map((s) => `'${s.hash}'`).join(' ')})`,
    count: scripts.length,
  };
}

const failure = (check: string, detail: string, fix?: string) => row(check, 'fail', detail, fix);

async function fetchPages(base: string, paths: string[]): Promise<PageResult[]> {
  const pages: PageResult[] = [];
  for (const path of paths) {
    try {
      const answer = await request(`${base}${path}`);
      pages.push({ path, answer, title: titleOf(answer.body) });
    } catch (error) {
      pages.push({ path, error: reason(error), title: '' });
    }
  }
  return pages;
}

/** Each page: 200 HTML with a title of its own and every inline script admitted by its CSP (the redirect route: the edge's redirect). */
function pageChecks(base: string, pages: PageResult[]): CheckResult[] {
  const titleCount = new Map<string, number>();
  for (const p of pages) if (p.path !== REDIRECT_ROUTE && p.title) titleCount.set(p.title, (titleCount.get(p.title) ?? 0) + 1);
  return pages.map((page): CheckResult => {
    const check = `GET ${page.path}`;
    if (!page.answer) return failure(check, `no answer (${page.error})`);
    const location = page.answer.headers.get('location');
    if (page.path === REDIRECT_ROUTE && isRedirect(page.answer.status) && location) {
      // Redirected at the edge (the viewer-request function) rather than by the page's own script.
      const target = new URL(location, `${base}/`).pathname;
      return target === REDIRECT_TARGET
        ? row(check, 'pass', `${page.answer.status} → ${REDIRECT_TARGET}`)
        : failure(check, `${page.answer.status} → ${target}, expected ${REDIRECT_TARGET}`);
    }
    const problems: string[] = [];
    if (page.answer.status !== 200) problems.push(`status ${page.answer.status}, expected 200`);
    if (!isHtml(page.answer)) problems.push(`content-type ${page.answer.headers.get('content-type') ?? 'missing'}, expected text/html`);
    if (page.path !== REDIRECT_ROUTE) {
      if (!page.title) problems.push('no <title>');
      else if ((titleCount.get(page.title) ?? 0) > 1) problems.push(`title "${short(page.title)}" is shared with another route`);
    }
    const scripts = inlineScriptProblem(page.answer);
    if (scripts.problem) problems.push(scripts.problem);
    if (problems.length > 0) return failure(check, problems.join('; '));
    const shown = page.path === REDIRECT_ROUTE ? `(goes to ${REDIRECT_TARGET} in the browser)` : `"${short(page.title)}"`;
    return row(check, 'pass', `200 ${shown}, ${scripts.count} inline scripts admitted by CSP hash`);
  });
}

/** One check of one request: its judgement of the answer, or "no answer" and why when the request failed. */
async function checkAnswer(
  check: string,
  url: string,
  init: RequestInit,
  judge: (answer: Answer) => CheckResult,
  where = '',
): Promise<CheckResult> {
  let answer: Answer;
  try {
    answer = await request(url, init);
  } catch (error) {
    return failure(check, `${where}no answer (${reason(error)})`);
  }
  return judge(answer);
}

/** A deep link asked directly (no navigation before it) answers its own page, not the fallback. */
async function deepLinkCheck(base: string, home: PageResult | undefined, fromSitemap: string[]): Promise<CheckResult> {
  const deepPath = fromSitemap.find((p) => p.split('/').filter(Boolean).length >= 2) ?? '/projects/1';
  const judge = (answer: Answer): CheckResult => {
    const title = titleOf(answer.body);
    const sameAsHome = home?.title && title === home.title;
    return answer.status === 200 && title && !sameAsHome
      ? row('Deep link', 'pass', `${deepPath}: 200 "${short(title)}"`)
      : failure('Deep link', `${deepPath}: status ${answer.status}, title "${short(title)}"${sameAsHome ? ' (the home page’s)' : ''}`);
  };
  return checkAnswer('Deep link', `${base}${deepPath}`, { headers: { accept: 'text/html' } }, judge, `${deepPath}: `);
}

/** An unknown path: status 404 with the app's not-found page (it loads the same app as /home). */
async function unknownPathCheck(base: string, home: PageResult | undefined): Promise<CheckResult> {
  const unknown = `/smoke-check-missing-${Date.now().toString(36)}`;
  return checkAnswer('Unknown path', `${base}${unknown}`, {}, (answer) => {
    const problems: string[] = [];
    if (answer.status !== 404) problems.push(`status ${answer.status}, expected 404`);
    const homeScripts = home?.answer ? appScripts(home.answer.body) : new Set<string>();
    const shared = [...appScripts(answer.body)].filter((s) => homeScripts.has(s));
    if (!isHtml(answer) || shared.length === 0)
      problems.push('the body is not the app’s not-found page (it loads none of /home’s scripts)');
    const scripts = inlineScriptProblem(answer);
    if (scripts.problem) problems.push(scripts.problem);
    return problems.length === 0
      ? row('Unknown path', 'pass', `${unknown}: 404, the app's not-found page`)
      : failure('Unknown path', `${unknown}: ${problems.join('; ')}`);
  });
}

/** Security headers (on /home) and the third-party hosts the pages need. */
function headerChecks(home: Answer | undefined, origin: string): CheckResult[] {
  const headers = home?.headers;
  const policy = cspOf(home);
  const headerProblems: string[] = [];
  if (!headers) headerProblems.push('/home did not answer');
  else {
    const scriptSources = policy ? (policy.get('script-src') ?? policy.get('default-src') ?? []) : [];
    if (!policy) headerProblems.push('no Content-Security-Policy');
    else if (scriptSources.some((s) => s === "'unsafe-inline'" || s === "'unsafe-eval'"))
      headerProblems.push("script-src allows 'unsafe-inline' or 'unsafe-eval'");
    if (policy && !policy.get('frame-ancestors') && !/^(deny|sameorigin)$/i.test(headers.get('x-frame-options') ?? '')) {
      headerProblems.push('no frame-ancestors / X-Frame-Options');
    }
    const hsts = /max-age=(\d+)/i.exec(headers.get('strict-transport-security') ?? '');
    if (!hsts || Number(hsts[1]) < 31_536_000) headerProblems.push('no Strict-Transport-Security of a year or more');
    if ((headers.get('x-content-type-options') ?? '').toLowerCase() !== 'nosniff')
      headerProblems.push('no X-Content-Type-Options: nosniff');
    if (!headers.get('referrer-policy')) headerProblems.push('no Referrer-Policy');
  }
  const results: CheckResult[] = [
    headerProblems.length === 0
      ? row('Security headers', 'pass', "CSP (no 'unsafe-inline' scripts), HSTS, nosniff, frame-ancestors, Referrer-Policy")
      : failure('Security headers', headerProblems.join('; ')),
  ];
  for (const probe of THIRD_PARTY_PROBES) {
    const check = `CSP ${probe.what}`;
    const host = new URL(probe.url).host;
    if (!policy) results.push(failure(check, `${host}: no CSP to judge`));
    else if (allows(policy, probe.directive, probe.url, origin)) results.push(row(check, 'pass', `${probe.directive} allows ${host}`));
    else results.push(failure(check, `${probe.directive} refuses ${probe.url}`));
  }
  return results;
}

/** The API: a malformed contact body is refused with a JSON error (nothing is verified or mailed), and one click event is taken. */
async function apiChecks(base: string): Promise<CheckResult[]> {
  const post = (body: string): RequestInit => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body });
  const contact = await checkAnswer('POST /api/contact', `${base}/api/contact`, post('{"fullName": "Smoke Check", "email":'), (answer) => {
    let error: unknown;
    try {
      error = (JSON.parse(answer.body) as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    return answer.status >= 400 && answer.status < 500 && typeof error === 'string'
      ? row('POST /api/contact', 'pass', `malformed body → ${answer.status} {"error": "${short(error, 40)}"}, nothing sent`)
      : failure(
          'POST /api/contact',
          `malformed body → ${answer.status} ${short(answer.body.replace(/\s+/g, ' '), 40)} (expected 4xx with JSON {error})`,
        );
  });
  const events = await checkAnswer('POST /api/events', `${base}/api/events`, post(JSON.stringify({ name: SMOKE_EVENT_NAME })), (answer) =>
    answer.status === 204
      ? row('POST /api/events', 'pass', `204 (one ${SMOKE_EVENT_NAME} event, counted as "other")`)
      : failure('POST /api/events', `${SMOKE_EVENT_NAME} → ${answer.status}, expected 204`),
  );
  return [contact, events];
}

export async function runSmoke(rawBase: string): Promise<CheckResult[]> {
  const base = normalizeBaseUrl(rawBase);
  const origin = new URL(base).origin;
  // Routes: the fixed ones plus every path the site's own sitemap lists.
  let fromSitemap: string[] = [];
  let sitemapResult: CheckResult;
  try {
    const sitemap = await request(`${base}/sitemap.xml`);
    fromSitemap = sitemap.status === 200 ? sitemapPaths(sitemap.body) : [];
    sitemapResult =
      fromSitemap.length > 0
        ? row('sitemap.xml', 'pass', `${fromSitemap.length} URLs, checked on ${origin}`)
        : failure('sitemap.xml', `answered ${sitemap.status} with ${fromSitemap.length} <loc> URLs`);
  } catch (error) {
    // Nothing answers at all: one line says so instead of a table of the same failure.
    return [
      failure(
        'Site reachable',
        `no answer from ${base} (${reason(error)})`,
        'Check the address; right after a first deploy, DNS can take a few minutes.',
      ),
    ];
  }
  const pages = await fetchPages(base, [...new Set<string>([...FIXED_ROUTES, ...fromSitemap])]);
  const home = pages.find((p) => p.path === '/home');
  return [
    sitemapResult,
    ...pageChecks(base, pages),
    await deepLinkCheck(base, home, fromSitemap),
    await unknownPathCheck(base, home),
    ...headerChecks(home?.answer, origin),
    ...(await apiChecks(base)),
  ];
}
