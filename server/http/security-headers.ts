// helmet's security headers, computed once. Its defaults take nothing from the request, but the
// middleware rebuilds them on every response: eleven middleware calls and the Content-Security-
// Policy string joined again each time (docs/performance.md). The headers are taken from helmet
// itself at start-up, so they stay exactly helmet's; test/observability.test.ts compares them.
import type { RequestHandler } from 'express';
import helmet from 'helmet';

type HeaderValue = string | number | readonly string[];

/** What helmet's middleware does to a response with its defaults: the headers it sets and removes. */
export function helmetDefaultHeaders(): { set: Map<string, HeaderValue>; removed: string[] } {
  const set = new Map<string, HeaderValue>();
  const removed: string[] = [];
  let finished = false;
  const recorder = {
    setHeader(name: string, value: HeaderValue) {
      set.set(name, value);
    },
    removeHeader(name: string) {
      set.delete(name);
      removed.push(name);
    },
  };
  const middleware = helmet() as unknown as (req: object, res: typeof recorder, next: (error?: unknown) => void) => void;
  middleware({}, recorder, (error) => {
    if (error !== undefined) throw error instanceof Error ? error : new Error(String(error));
    finished = true;
  });
  // helmet runs synchronously; a version that did not would leave headers out unnoticed.
  if (!finished) throw new Error('helmet did not finish synchronously; its headers cannot be computed once');
  return { set, removed };
}

export function securityHeaders(): RequestHandler {
  const { set, removed } = helmetDefaultHeaders();
  const headers = [...set];
  return (_req, res, next) => {
    for (const name of removed) res.removeHeader(name);
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}
