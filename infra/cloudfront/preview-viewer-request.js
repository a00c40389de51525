// CloudFront Function (cloudfront-js-2.0), viewer request, the preview distribution. Appended at synth
// to the live site's viewer-request.js, whose `handler` is renamed `routeHandler`: a preview maps its
// routes to files exactly as the live site does, inside its own prefix.
//
// A preview's files sit under pr-N/<short sha>/ of the preview bucket and were built for the site's
// root (the same build as the live site's, no base path). So:
// - /pr-N/<sha>/REST (the address in the pull request's comment) answers 302 to /REST and sets the
//   cookie portfolio-preview=pr-N/<sha>, which picks the preview;
// - any other path, with that cookie, is mapped by routeHandler and then prefixed with pr-N/<sha>/.
//   The URI is rewritten before CloudFront's cache lookup, so each preview has its own cache entries
//   and no cookie needs to be in the cache key;
// - without a valid cookie: 404 with a line saying how to open a preview.
/* global routeHandler, queryString -- defined by viewer-request.js, which comes first in the same code */
var PREVIEW_COOKIE = 'portfolio-preview';
var PREVIEW_ID = /^pr-[1-9][0-9]{0,6}\/[0-9a-f]{7}$/;
var PREVIEW_ENTRY = /^\/(pr-[1-9][0-9]{0,6}\/[0-9a-f]{7})(\/.*)?$/;

function handler(event) {
  var request = event.request;
  var entry = request.uri.match(PREVIEW_ENTRY);
  if (entry) {
    return {
      statusCode: 302,
      statusDescription: 'Found',
      headers: {
        location: { value: (entry[2] || '/') + queryString(request.querystring) },
        'cache-control': { value: 'no-store' },
      },
      cookies: {
        'portfolio-preview': { value: entry[1], attributes: 'Path=/; Secure; HttpOnly; SameSite=Lax' },
      },
    };
  }
  var cookie = request.cookies[PREVIEW_COOKIE];
  var id = cookie ? cookie.value : '';
  if (!PREVIEW_ID.test(id)) {
    return {
      statusCode: 404,
      statusDescription: 'Not Found',
      headers: { 'content-type': { value: 'text/plain; charset=utf-8' }, 'cache-control': { value: 'no-store' } },
      body: 'No preview chosen: open the address in the pull request\'s preview comment (/pr-N/<commit>/).\n',
    };
  }
  var routed = routeHandler(event);
  if (routed.statusCode) return routed;
  routed.uri = '/' + id + routed.uri;
  return routed;
}
