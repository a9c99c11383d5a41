// Sends a request with a large body without ever holding it: one shared 64 KiB chunk, written as
// fast as the socket takes it, and no more once the answer has come. For the tests of what an
// unauthenticated body costs the server (test/unauthenticated-cost.test.ts).
import { request } from 'node:http';

export interface BodySend {
  port: number;
  path: string;
  method?: string;
  headers: Record<string, string>;
  bodyBytes: number;
  /** Send the headers only, and none of the body. */
  withholdBody?: boolean;
  /** What the body repeats (64 KiB of `a` by default); `a=1&` makes a form of 262,144 fields a MiB. */
  fill?: string;
}

export interface BodyAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Milliseconds from the request's start to the answer's headers. */
  ms: number;
  /** Set when the server closed the connection under the writing before its answer was read. */
  cut?: string;
}

const chunks = new Map<string, Buffer>();
const chunkOf = (fill: string) => chunks.get(fill) ?? chunks.set(fill, Buffer.alloc(64 * 1024, fill)).get(fill) as Buffer;

export function sendBody(send: BodySend): Promise<BodyAnswer> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    let answered = false;
    const req = request(
      { host: '127.0.0.1', port: send.port, path: send.path, method: send.method ?? 'POST', agent: false, headers: { ...send.headers, 'content-length': String(send.bodyBytes) } },
      (res) => {
        answered = true;
        res.resume();
        resolve({ status: res.statusCode ?? 0, headers: res.headers, ms: performance.now() - started });
        req.destroy();
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      if (answered) return;
      // The server answered and closed while we were still writing: the answer may be lost to the
      // reset, but the connection was refused, which is what these senders meet.
      if (error.code === 'EPIPE' || error.code === 'ECONNRESET') resolve({ status: 0, headers: {}, ms: performance.now() - started, cut: error.code });
      else reject(error);
    });
    req.flushHeaders();
    if (send.withholdBody) return;
    let left = send.bodyBytes;
    const chunk = chunkOf(send.fill ?? 'a');
    const pump = () => {
      while (left > 0 && !answered) {
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        if (!req.write(piece)) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    pump();
  });
}
