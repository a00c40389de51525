/**
 * The site's public address without a trailing slash, checked: VITE_SITE_URL (a build variable)
 * overrides the content's siteUrl so one build can target a staging or custom domain. Run at build
 * time only (config/env-schema.ts), so the browser carries the address, not this check.
 */
export function resolveSiteUrl(override: string | undefined, fallback: string): string {
  const raw = (override ?? '').trim() || fallback.trim();
  if (raw === '') return '';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`Site URL must be an absolute http(s) address such as https://example.com, got "${raw}".`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new Error(`Site URL must use http or https, got "${raw}".`);
  }
  if (url.search || url.hash) throw new Error(`Site URL must not have a query or fragment, got "${raw}".`);
  return url.href.replace(/\/+$/, '');
}
