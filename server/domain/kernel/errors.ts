// The one error type of the domain. Each carries a stable wire code; the HTTP layer maps codes to
// statuses, so no domain rule knows about HTTP.
import type { ErrorCode, FieldError } from '../../../contract/errors.js';

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
    this.name = 'AppError';
  }
}
