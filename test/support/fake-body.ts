// The body a fake provider's server received: parsed JSON, the raw text when it is not JSON, or
// undefined when empty.
import type { IncomingMessage } from 'node:http';

export function readBody(request: IncomingMessage): Promise<unknown> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(raw === '' ? undefined : JSON.parse(raw));
      } catch {
        resolve(raw);
      }
    });
  });
}
