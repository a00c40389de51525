// CloudFront Function (cloudfront-js-2.0), viewer request, the preview distribution. Appended at synth
// to the live site's viewer-request.js, whose `handler` is renamed `routeHandler`: a preview maps its
// routes to files exactly as the live site does, inside its own prefix.
//
// A preview's files sit under pr-N/<short sha>/ of the preview bucket, built for that path (its links,
// assets and router all carry /pr-N/<sha>/), so the function keeps no state and reads no cookie:
// - /pr-N/<sha>/REST is REST, mapped by routeHandler as the live site maps it (a redirect such as
//   "/" -> "/home" stays inside the prefix, an extension-less path gets its index.html), then put back
//   under /pr-N/<sha>/;
// - /pr-N/<sha> (no trailing slash) answers 302 to /pr-N/<sha>/, the preview's root;
// - /preview-not-found.html, the page the distribution answers a missing key with (main's deploy writes
//   it at the bucket's root), passes as it is, whether or not CloudFront runs this function when it
//   fetches its error page;
// - anything else (no preview prefix, one that is not pr-N/<7 hex>, or a "." or ".." segment that
//   would climb out of it) answers a short 404 here, so nothing outside the preview's keys is ever
//   asked of the bucket.
/* global routeHandler, queryString -- defined by viewer-request.js, which comes first in the same code */
var PREVIEW_PATH = /^\/(pr-[1-9][0-9]{0,6}\/[0-9a-f]{7})(\/.*)?$/;
var DOT_SEGMENT = /\/\.\.?(\/|$)/;
var NOT_FOUND_PAGE = '/preview-not-found.html';

function notAPreview() {
  return {
    statusCode: 404,
    statusDescription: 'Not Found',
    headers: { 'content-type': { value: 'text/plain; charset=utf-8' }, 'cache-control': { value: 'no-store' } },
    body: 'Not a preview: open the address in the pull request\'s preview comment (/pr-N/<commit>/).\n',
  };
}

function handler(event) {
  var request = event.request;
  if (request.uri === NOT_FOUND_PAGE) return request;
  var match = request.uri.match(PREVIEW_PATH);
  if (!match || DOT_SEGMENT.test(request.uri)) return notAPreview();
  var prefix = '/' + match[1];
  if (match[2] === undefined) {
    return {
      statusCode: 302,
      statusDescription: 'Found',
      headers: { location: { value: prefix + '/' + queryString(request.querystring) }, 'cache-control': { value: 'no-cache' } },
    };
  }
  request.uri = match[2];
  var routed = routeHandler(event);
  if (routed.statusCode) {
    var location = routed.headers && routed.headers.location;
    // The live routing's redirects name site paths ("/home"): inside a preview they are its own.
    if (location && location.value.charAt(0) === '/' && location.value.charAt(1) !== '/') location.value = prefix + location.value;
    return routed;
  }
  routed.uri = prefix + routed.uri;
  return routed;
}
