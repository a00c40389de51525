// CloudFront Function (cloudfront-js-2.0), viewer request, default behavior.
// Plain ES5-style script: no modules, no Node APIs. The local server (infra/local) runs this
// same file for every non-API request, so both decide paths identically.
//
// - "/" answers 302 to "/home" (spec: / redirects to /home, replacing history), keeping the query.
// - An extension-less path gets its prerendered file: /projects/3 -> /projects/3/index.html,
//   /projects/ -> /projects/index.html. A path that names no object then makes S3 answer 404,
//   which the distribution turns into the app's fallback page with status 404.
// - Paths whose last segment has a dot (assets, robots.txt, sitemap.xml) pass unchanged.
function handler(event) {
  var request = event.request;
  var uri = request.uri;

  if (uri === '/') {
    return {
      statusCode: 302,
      statusDescription: 'Found',
      headers: {
        location: { value: '/home' + queryString(request.querystring) },
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
