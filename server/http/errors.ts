// Every failure becomes the error body (README, Concepts, "Errors"): validation errors with every bad field, domain
// errors by code, body-parser failures, unknown routes (404) and wrong methods (405). No HTML and
// no stack trace ever reaches a client.
import { isAppRoute, ResponseValidationError, type AppRoute, type AppRouter } from '@ts-rest/core';
import type { RequestValidationError } from '@ts-rest/express';
import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from 'pino';
import { fieldErrorsFromIssues, type ErrorCode, type ErrorResponse, type FieldError } from '../../contract/errors.js';
import { isDatabaseUnavailable } from '../db/client.js';
import { AppError } from '../domain/kernel/index.js';

export const statusOfCode: Record<ErrorCode, number> = {
  invalid_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  payload_too_large: 413,
  unprocessable: 422,
  rate_limited: 429,
  internal_error: 500,
  order_not_yet_ingested: 500,
};

/** What a client is told to wait while the database is away: about the time a restart takes. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Said on a 429 whose limit did not say when to retry: the shortest window of any limit. */
const DEFAULT_RETRY_AFTER_SECONDS = 60;

export function sendError(res: Response, code: ErrorCode, message: string, fieldErrors: FieldError[] = []): void {
  const body: ErrorResponse = { error: message, error_code: code, errors: fieldErrors };
  // Every 429 says when to retry; each limit sets its own, this is the floor under them.
  if (statusOfCode[code] === 429 && !res.hasHeader('Retry-After')) res.setHeader('Retry-After', String(DEFAULT_RETRY_AFTER_SECONDS));
  res.status(statusOfCode[code]).json(body);
}

/** ts-rest's hook: request validation failures become one 400 listing every bad field. */
export function requestValidationErrorHandler(err: RequestValidationError, _req: Request, res: Response, _next: NextFunction): void {
  const issues = [err.pathParams, err.query, err.headers, err.body].flatMap((error) => error?.issues ?? []);
  const fieldErrors = fieldErrorsFromIssues(issues);
  const count = fieldErrors.length;
  sendError(res, 'invalid_request', `The request has ${count} invalid field${count === 1 ? '' : 's'}.`, fieldErrors);
}

function flattenRoutes(router: AppRouter | AppRoute): AppRoute[] {
  if (isAppRoute(router)) return [router];
  return Object.values(router).flatMap((child) => flattenRoutes(child as AppRouter | AppRoute));
}

/** After every route: 405 with Allow when the path exists under another method, else 404. */
export function unmatchedRoute(router: AppRouter, extraRoutes: Array<{ method: string; path: string }> = []): RequestHandler {
  const routes = [...flattenRoutes(router), ...extraRoutes].map((route) => ({
    method: route.method,
    pattern: new RegExp(`^${route.path.replace(/[.]/g, '\\.').replace(/:[A-Za-z_]+/g, '[^/]+')}/?$`),
  }));
  return (req, res, next) => {
    const allowed = [...new Set(routes.filter((route) => route.pattern.test(req.path)).map((route) => route.method))];
    if (allowed.length > 0) {
      res.setHeader('Allow', allowed.join(', '));
      return next(new AppError('method_not_allowed', `${req.method} is not allowed here; allowed: ${allowed.join(', ')}.`));
    }
    next(new AppError('not_found', `No endpoint ${req.method} ${req.path}.`));
  };
}

/** Errors raised by Express and body-parser carry the HTTP status they mean (4xx: the client's fault). */
interface HttpLayerError {
  status: number;
  type?: string;
}

function isHttpLayerError(error: unknown): error is HttpLayerError {
  return typeof error === 'object' && error !== null && typeof (error as HttpLayerError).status === 'number';
}

function clientErrorMessage(error: HttpLayerError): string {
  if (error.type === 'entity.parse.failed') return 'The body is not valid JSON.';
  if (error.type === 'encoding.unsupported' || error.type === 'charset.unsupported') return 'The body must be UTF-8 JSON.';
  if (error.type === undefined) return 'The request URL could not be decoded.';
  return 'The request could not be read.';
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    if (res.headersSent) {
      res.end();
      return;
    }
    // Refused before its body was read (identity, size): the answer goes now and the connection
    // closes after it, so the rest of the body is never read, nor waited for.
    if (!req.complete) res.setHeader('Connection', 'close');
    if (error instanceof AppError) return sendError(res, error.code, error.message, error.fieldErrors);
    if (isHttpLayerError(error) && error.status >= 400 && error.status < 500) {
      if (error.status === 413) return sendError(res, 'payload_too_large', 'The body is over the 1 MiB limit.');
      return sendError(res, 'invalid_request', clientErrorMessage(error));
    }
    if (isDatabaseUnavailable(error)) {
      // The database is restarting or unreachable. Every write is one transaction or one statement,
      // so the request either landed whole or not at all, and the same request succeeds once the
      // database is back (the pools reconnect by themselves). Not a bug: no stack.
      logger.warn({ request_id: req.requestId, kind: 'database_unavailable', error_code: (error as { code?: unknown }).code }, 'database unavailable');
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return sendError(res, 'internal_error', 'The database is unavailable for a moment; the request is safe to retry.');
    }
    // A response that does not match the contract is our bug: never send it, log where it happened.
    const kind = error instanceof ResponseValidationError ? 'response_validation' : 'unhandled';
    logger.error(
      {
        request_id: req.requestId,
        kind,
        error_name: error instanceof Error ? error.name : typeof error,
        error_code: (error as { code?: unknown } | null)?.code,
        stack: error instanceof Error ? error.stack?.split('\n').slice(1, 8).join('\n') : undefined,
      },
      'request failed',
    );
    sendError(res, 'internal_error', 'Something went wrong on our side; the request is safe to retry.');
  };
}
