// GET /docs: the API reference, rendered by Redoc in the browser from GET /openapi.json. Everything
// the page loads comes from this service (Redoc's standalone bundle out of node_modules, no CDN, no
// web fonts), and these routes carry a strict Content-Security-Policy of their own.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import express from 'express';
import helmet from 'helmet';

const require = createRequire(import.meta.url);
const redocBundlePath = require.resolve('redoc/bundles/redoc.standalone.js');
const redocSourceMapPath = require.resolve('redoc/bundles/redoc.standalone.js.map');
// In the bundle's URL so that a new Redoc version is fetched despite the year-long cache below.
const redocVersion = (require('redoc/package.json') as { version: string }).version;

const LONG_CACHE = 'public, max-age=31536000, immutable';

// Redoc's side menu shows Redocly's logo from their CDN, unconditionally (no option turns it off).
// Point it at an empty data: image instead: the image fails to decode, Redoc's own onError hides it,
// and nothing leaves the service. The blanks keep the bundle's length, so its source map still fits.
const REDOCLY_LOGO = 'src:"https://cdn.redoc.ly/redoc/logo-mini.svg"';
const NO_LOGO = 'src:"data:,"'.padEnd(REDOCLY_LOGO.length, ' ');

function loadRedocBundle(): Buffer {
  return Buffer.from(readFileSync(redocBundlePath, 'utf8').replace(REDOCLY_LOGO, NO_LOGO), 'utf8');
}

const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Order Protection API reference</title>
<link rel="icon" href="data:,">
</head>
<body>
<div id="redoc"></div>
<script src="/docs/redoc.standalone.js?v=${redocVersion}"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

// An external script, not an inline one, so that script-src stays 'self' only. System fonts: Redoc's
// default theme names Roboto and Montserrat, which a reader may not have and which we do not serve.
const init = `'use strict';
(function () {
  var sans = 'system-ui, -apple-system, "Segoe UI", "Helvetica Neue", Arial, sans-serif';
  var mono = 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "Liberation Mono", monospace';
  document.body.style.margin = '0'; // through the CSSOM: the CSP refuses inline style
  Redoc.init(
    '/openapi.json',
    { theme: { typography: { fontFamily: sans, headings: { fontFamily: sans }, code: { fontFamily: mono } } } },
    document.getElementById('redoc'),
  );
})();
`;

/**
 * Content-Security-Policy for /docs and everything under it: nothing but what Redoc needs. Each
 * allowance below was removed in turn and the browser test (test/docs-page.test.ts) then failed.
 */
const docsCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    // Anything not listed below is refused: fonts (the theme in init.js uses system fonts), frames,
    // objects, media, manifests, and every other origin.
    defaultSrc: ["'none'"],
    // The Redoc bundle and init.js, both served here: no inline script, no eval.
    scriptSrc: ["'self'"],
    // Redoc fetches the document from GET /openapi.json.
    connectSrc: ["'self'"],
    // Two <style> elements, by hash rather than 'unsafe-inline' (without either, Redoc throws and
    // renders nothing):
    // - an empty <style data-styled>, into which styled-components inserts every rule through the
    //   CSSOM (insertRule, which CSP does not govern); sha256 of the empty string;
    // - perfect-scrollbar's CSS (the side menu's scrollbars), which the bundle inserts as it loads.
    //   Its hash belongs to redoc 2.5.4: after an upgrade, the browser test fails with Chromium's
    //   "Applying inline style violates ..." error, which names the new hash to put here.
    styleSrc: ["'sha256-47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU='", "'sha256-QMIg+bpjm3JdElJ388KYke01izlUW0UoNOeKjpMxdgc='"],
    // Redoc's search index (lunr) runs in a Worker that it creates from a blob: URL.
    workerSrc: ['blob:'],
    // Redoc's icons are data: SVG images, and the page's empty favicon and the stand-in for Redocly's
    // logo are data: URLs too. No image comes from anywhere else, not even from 'self'.
    imgSrc: ['data:'],
    // default-src does not cover these three.
    baseUri: ["'none'"],
    formAction: ["'none'"],
    frameAncestors: ["'none'"],
  },
});

export function docsPage(): express.Router {
  const router = express.Router();
  router.use('/docs', docsCsp);

  router.get('/docs', (_req, res) => {
    res.type('html').send(page);
  });

  router.get('/docs/init.js', (_req, res) => {
    res.type('js').send(init);
  });

  const redocBundle = loadRedocBundle();
  router.get('/docs/redoc.standalone.js', (_req, res) => {
    res.type('js').set('Cache-Control', LONG_CACHE).send(redocBundle);
  });

  // For browser developer tools only: the bundle names its source map.
  router.get('/docs/redoc.standalone.js.map', (_req, res, next) => {
    res.sendFile(redocSourceMapPath, (error) => {
      if (error) next(error);
    });
  });

  return router;
}
