// The browser apps, each a single-page app built by Vite from web/<app> into web/<app>/dist
// (scripts/build-web.mjs; npm install and npm start run it): the merchant console at /console and
// the shoppers' claim page at /claims. Their content-hashed files are cached for a year; every
// other page path answers index.html, and the app's router takes it from there. /console/api/ is
// the console's API, not the app: it is left to its routes.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import express from 'express';
import helmet from 'helmet';
import type { ErrorResponse } from '../../contract/errors.js';
import { AppError } from '../domain/kernel/index.js';

const LONG_CACHE_SECONDS = 365 * 24 * 3600;

/**
 * Content-Security-Policy for an app: only its own files. The builds have no inline script or
 * style (the browser tests check both), so nothing here is 'unsafe-*'. `blob:` images are the
 * claim page's previews of photos the shopper picked.
 */
const appCsp = (images: string[]) =>
  helmet.contentSecurityPolicy({
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      // The bundle under /<app>/assets/.
      scriptSrc: ["'self'"],
      // Its stylesheet, also under assets/; React sets styles through the CSSOM.
      styleSrc: ["'self'"],
      // The page's empty favicon is a data: URL.
      imgSrc: ["'self'", 'data:', ...images],
      // The app's API on this origin.
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

export interface WebAppOptions {
  /** Where the built app is; web/<app>/dist unless a test says otherwise. */
  distDir?: string;
}

interface WebApp {
  /** The URL path and the folder under web/. */
  name: 'console' | 'claims';
  title: string;
  /** Its API lives under <mount>/api (the console's), left to the API's routes. */
  apiBelow: boolean;
  images: string[];
}

export const consoleApp = (options: WebAppOptions = {}) => webApp({ name: 'console', title: 'The merchant console', apiBelow: true, images: [] }, options);
export const claimsApp = (options: WebAppOptions = {}) => webApp({ name: 'claims', title: 'The claim page', apiBelow: false, images: ['blob:'] }, options);

function webApp(app: WebApp, options: WebAppOptions): express.Router {
  const distDir = options.distDir ?? fileURLToPath(new URL(`../../web/${app.name}/dist/`, import.meta.url));
  const indexPath = join(distDir, 'index.html');
  const mount = `/${app.name}`;
  const router = express.Router();

  const notBuilt = (res: express.Response): void => {
    const body: ErrorResponse = { error: `${app.title} is not built on this server: run \`npm run build:web\`, then reload.`, error_code: 'internal_error', errors: [] };
    res.status(503).set('Cache-Control', 'no-store').json(body);
  };

  // Under this mount, req.path is what follows it.
  if (app.apiBelow) router.use(mount, (req, _res, next) => (isApiPath(req.path) ? next('router') : next()));
  router.use(mount, appCsp(app.images));

  // Content-hashed names: a new build has new names, so a year-long cache is safe. Vite writes
  // them flat into assets/, so one path segment names any of them.
  router.get(`${mount}/assets/:file`, (req, res, next) => {
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
    if (req.path.startsWith(`${mount}/assets/`)) {
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
  router.get(mount, servePage);
  router.get(`${mount}/*`, servePage);
  // The app's pages are only read: any other method is 405, as on the API's own paths.
  router.all([mount, `${mount}/*`], (req, res, next) => {
    // A GET that reached here is a file no build made: the unmatched-route handler's 404.
    if (req.method === 'GET' || req.method === 'HEAD') return next();
    res.setHeader('Allow', 'GET, HEAD');
    next(new AppError('method_not_allowed', `${app.title}'s pages are only read: use GET.`));
  });

  return router;
}
