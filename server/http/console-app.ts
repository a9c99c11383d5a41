// GET /console: the merchant console, a single-page app built by Vite from web/console into
// web/console/dist (scripts/build-web.mjs; npm install and npm start run it). Its content-hashed
// files are cached for a year; every other page path answers index.html, and the app's router
// takes it from there. /console/api/ is the console's API, not the app: it is left to its routes.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import helmet from 'helmet';
import type { ErrorResponse } from '../../contract/errors.js';
import { AppError } from '../domain/errors.js';

const DEFAULT_DIST_DIR = fileURLToPath(new URL('../../web/console/dist/', import.meta.url));
const LONG_CACHE_SECONDS = 365 * 24 * 3600;

/**
 * Content-Security-Policy for the app: only its own files. The build has no inline script or style
 * (test/console-web.test.ts checks both), so nothing here is 'unsafe-*'.
 */
const consoleCsp = helmet.contentSecurityPolicy({
  useDefaults: false,
  directives: {
    defaultSrc: ["'none'"],
    // The bundle under /console/assets/.
    scriptSrc: ["'self'"],
    // Its stylesheet, also under /console/assets/; React sets styles through the CSSOM, if ever.
    styleSrc: ["'self'"],
    // The page's empty favicon is a data: URL.
    imgSrc: ["'self'", 'data:'],
    // The console's API, /console/api/.
    connectSrc: ["'self'"],
    // System fonts only; 'self' should a font ever be bundled.
    fontSrc: ["'self'"],
    // default-src does not cover these three.
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
});

const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/');

function notBuilt(res: express.Response): void {
  const body: ErrorResponse = {
    error: 'The merchant console is not built on this server: run `npm run build:web`, then reload.',
    error_code: 'internal_error',
    errors: [],
  };
  res.status(503).set('Cache-Control', 'no-store').json(body);
}

export interface ConsoleAppOptions {
  /** Where the built app is; web/console/dist unless a test says otherwise. */
  distDir?: string;
}

export function consoleApp(options: ConsoleAppOptions = {}): express.Router {
  const distDir = options.distDir ?? DEFAULT_DIST_DIR;
  const indexPath = join(distDir, 'index.html');
  const router = express.Router();

  // Under this mount, req.path is what follows /console.
  router.use('/console', (req, _res, next) => (isApiPath(req.path) ? next('router') : next()));
  router.use('/console', consoleCsp);

  // Content-hashed names: a new build has new names, so a year-long cache is safe. Vite writes
  // them flat into assets/, so one path segment names any of them.
  router.get('/console/assets/:file', (req, res, next) => {
    const file = req.params.file;
    res.sendFile(file, { root: join(distDir, 'assets'), dotfiles: 'deny', etag: false, immutable: true, maxAge: LONG_CACHE_SECONDS * 1000 }, (error?: Error) => {
      if (error === undefined) return;
      if (res.headersSent) return next(error);
      // A file no build made: the unmatched-route handler answers 404 (or 503 with no build at all).
      if (existsSync(indexPath)) return next();
      notBuilt(res);
    });
  });

  const servePage: express.RequestHandler = (req, res, next) => {
    if (req.path.startsWith('/console/assets/')) {
      // A deeper path under assets/ is no file of a build.
      if (existsSync(indexPath)) return next();
      return notBuilt(res);
    }
    // Read at each request (a small file): a new build is served without a restart.
    readFile(indexPath)
      .then((html) => {
        res.type('html').set('Cache-Control', 'no-cache').send(html);
      })
      .catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return notBuilt(res);
        next(error);
      });
  };
  // Two routes rather than one with two paths: the request log and the metrics name req.route.path.
  router.get('/console', servePage);
  router.get('/console/*', servePage);
  // The app's pages are only read: any other method is 405, as on the API's own paths.
  router.all(['/console', '/console/*'], (req, res, next) => {
    // A GET that reached here is a file no build made: the unmatched-route handler's 404.
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.setHeader('Allow', 'GET, HEAD');
    next(new AppError('method_not_allowed', 'The console\'s pages are only read: use GET.'));
  });

  return router;
}
