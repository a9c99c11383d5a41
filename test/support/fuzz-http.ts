// Raw HTTP for the property-based tests: any bytes out, and a strict look at what comes back (JSON,
// the error format, no stack trace), without assuming the answer is well-formed.
import { createHmac } from 'node:crypto';
import { ErrorResponse } from '../../contract/errors.js';

export interface RawAnswer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
  /** Set when the body is not JSON. */
  notJson?: string;
}

export interface RawRequest {
  method: string;
  /** Already encoded. */
  path: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
}

export async function send(baseUrl: string, request: RawRequest): Promise<RawAnswer> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
  });
  const text = await response.text();
  const contentType = response.headers.get('content-type') ?? '';
  let json: unknown;
  let notJson: string | undefined;
  try {
    json = JSON.parse(text);
  } catch {
    notJson = 'the body does not parse as JSON';
  }
  if (!/^application\/json/.test(contentType)) notJson = `the content type is "${contentType}"`;
  return { status: response.status, contentType, text, json, ...(notJson === undefined ? {} : { notJson }) };
}

/** Percent-encodes every byte of the UTF-8 form except unreserved characters (lone surrogates become U+FFFD). */
export function encodeSegment(value: string, keep = ''): string {
  let out = '';
  for (const byte of Buffer.from(value, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) || (byte < 0x80 && keep.includes(char)) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** The EasyPost webhook signature: X-Hmac-Signature: hmac-sha256-hex=<HMAC-SHA256 of the raw body>. */
export function signEasyPost(secret: string, raw: Buffer | string): string {
  return `hmac-sha256-hex=${createHmac('sha256', Buffer.from(secret.normalize('NFKD'), 'utf8')).update(raw).digest('hex')}`;
}

export class AnswerMismatch extends Error {
  override name = 'AnswerMismatch';
}

function describe(answer: RawAnswer): string {
  const shown = answer.text.length > 600 ? `${answer.text.slice(0, 600)}...` : answer.text;
  return `${answer.status} ${answer.contentType} ${shown}`;
}

const STACK_TRACE = /\n\s+at\s+\S|node_modules|\((?:file:\/\/)?\/[^)]*:\d+:\d+\)|\b\w+Error: /;

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value !== null && typeof value === 'object') return Object.entries(value).flatMap(([key, item]) => [key, ...strings(item)]);
  return [];
}

/**
 * JSON, with no stack trace and no 5xx; an error in the error format. `sent` is what the request
 * carried: an error message may quote it, so a trace-like text the client sent itself is no trace.
 */
export function assertJsonNot5xx(answer: RawAnswer, context: string, sent = ''): void {
  if (answer.notJson !== undefined) throw new AnswerMismatch(`${context}: ${answer.notJson}: ${describe(answer)}`);
  for (const text of strings(answer.json)) {
    const trace = STACK_TRACE.exec(text);
    if (trace && !sent.includes(trace[0])) throw new AnswerMismatch(`${context}: the answer carries a stack trace: ${describe(answer)}`);
  }
  if (answer.status >= 500) throw new AnswerMismatch(`${context}: server error: ${describe(answer)}`);
  if (answer.status >= 400) assertErrorFormat(answer, context);
}

/** {error, error_code, errors: [{field, message}]} and nothing else. */
export function assertErrorFormat(answer: RawAnswer, context: string): void {
  const parsed = ErrorResponse.strict().safeParse(answer.json);
  const fieldsOk = parsed.success && parsed.data.errors.every((error) => Object.keys(error).sort().join() === 'field,message');
  if (!fieldsOk) throw new AnswerMismatch(`${context}: not in the error format: ${describe(answer)}`);
}

/** A 4xx in the error format. */
export function assertClientError(answer: RawAnswer, context: string, status?: number, sent = ''): void {
  assertJsonNot5xx(answer, context, sent);
  if (answer.status < 400 || answer.status >= 500) throw new AnswerMismatch(`${context}: expected a 4xx: ${describe(answer)}`);
  if (status !== undefined && answer.status !== status) throw new AnswerMismatch(`${context}: expected ${status}: ${describe(answer)}`);
}

/** A 2xx (with its JSON body). */
export function assertSuccess(answer: RawAnswer, context: string, status?: number, sent = ''): void {
  assertJsonNot5xx(answer, context, sent);
  if (answer.status < 200 || answer.status >= 300) throw new AnswerMismatch(`${context}: expected a 2xx: ${describe(answer)}`);
  if (status !== undefined && answer.status !== status) throw new AnswerMismatch(`${context}: expected ${status}: ${describe(answer)}`);
}
