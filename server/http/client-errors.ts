// Requests Node's HTTP parser refuses before the app sees them (broken framing, oversized headers,
// a client too slow to send its request): answered in the error format, with the headers every
// answer carries, instead of Node's bare status line. The headers were not read (or not all), so
// the key and its mode are unknown: the answer says live, as for any request without a test key.
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorResponse } from '../../contract/errors.js';

interface ParserRefusal {
  status: number;
  message: string;
}

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 429: 'Too Many Requests', 431: 'Request Header Fields Too Large' };

/** What to tell the client, by the parser's error code (llhttp's HPE_* or Node's own). */
function refusalOf(code: string | undefined): ParserRefusal {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'The request headers are over the 16 KiB limit.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      return { status: 408, message: 'The request was not received in time.' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, message: 'The connection was closed before the request was complete (a body shorter than its Content-Length).' };
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_TRANSFER_ENCODING':
      return { status: 400, message: 'A request must not carry both Content-Length and Transfer-Encoding: chunked.' };
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, message: 'A chunk size of the chunked body is not a hexadecimal number.' };
    default:
      return { status: 400, message: 'The request is not well-formed HTTP/1.1.' };
  }
}

export function answerParserErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    // A reset connection hears nothing; one that already got bytes of an answer must not get a second.
    if (error.code === 'ECONNRESET' || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const { status, message } = refusalOf(error.code);
    socket.end(rawErrorAnswer(status, message, 'invalid_request'));
  });
}

/**
 * An error answer written straight to a socket, for requests refused before (or without) the app:
 * the error format, the headers every answer carries, and Connection: close.
 */
export function rawErrorAnswer(status: number, message: string, code: ErrorResponse['error_code'], extraHeaders: string[] = []): string {
  const body: ErrorResponse = { error: message, error_code: code, errors: [] };
  const json = JSON.stringify(body);
  return [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    ...extraHeaders,
    `X-Request-Id: req_${randomUUID()}`,
    'X-Service-Mode: live',
    'X-Legacy-Mode: live',
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}
