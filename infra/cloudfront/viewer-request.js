/* global SITE_REDIRECTS -- written in by viewer-request-loader.ts */
// CloudFront Function (cloudfront-js-2.0), viewer request, default behavior.
// Plain ES5-style script: no modules, no Node APIs. The local server (infra/local) runs this
// same code for every non-API request, so both decide paths identically.
//
// - An address that only redirects ("/") answers 302 to its target ("/home"), keeping the query.
//   REDIRECTS is the site's page table's (contract/site-routes.ts), written in as a JSON object by
//   viewer-request-loader.ts viewerRequestFunctionCode: this file alone does not run.
// - An extension-less path gets its prerendered file: /projects/3 -> /projects/3/index.html,
//   /projects/ -> /projects/index.html. A path that names no object then makes S3 answer 404,
//   which the distribution turns into the app's fallback page with status 404.
// - Paths whose last segment has a dot (assets, robots.txt, sitemap.xml) pass unchanged.
var REDIRECTS = SITE_REDIRECTS;

function handler(event) {
  var request = event.request;
  var uri = request.uri;

  if (Object.prototype.hasOwnProperty.call(REDIRECTS, uri)) {
    return {
      statusCode: 302,
      statusDescription: 'Found',
      headers: {
        location: { value: REDIRECTS[uri] + queryString(request.querystring) },
        'cache-control': { value: 'no-cache' },
      },
    };
  }

  var lastSegment = uri.substring(uri.lastIndexOf('/') + 1);
  if (lastSegment.indexOf('.') !== -1) {
    return request;
  }
  request.uri = uri.charAt(uri.length - 1) === '/' ? uri + 'index.html' : uri + '/index.html';
  return request;
}

// Rebuilds "?a=1&b=2" from CloudFront's querystring object ({ a: { value }, b: { value, multiValue } }).
function queryString(querystring) {
  var parts = [];
  var names = Object.keys(querystring || {});
  for (var i = 0; i < names.length; i++) {
    var entry = querystring[names[i]];
    var values = entry.multiValue ? entry.multiValue : [entry];
    for (var j = 0; j < values.length; j++) {
      var value = values[j].value;
      parts.push(value === '' ? names[i] : names[i] + '=' + value);
    }
  }
  return parts.length ? '?' + parts.join('&') : '';
}
