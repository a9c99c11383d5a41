// The service's JSON logger (pino). Log lines carry route patterns, statuses and ids, never bodies
// or headers; the redaction below is the second line of defence should an object with a key,
// secret or personal data ever be logged by mistake.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';

export const REDACTED_PATHS = [
  'token',
  'authorization',
  'secret',
  'password',
  'key',
  'api_key',
  'email',
  'phone',
  'first_name',
  'last_name',
  'name',
  'street_address1',
  'street_address2',
  'address',
  'customer',
  'shipping_address',
  'shipping_details',
  'billing_address',
  'customer_details',
  'headers',
].flatMap((field) => [field, `*.${field}`]);

export function createLogger(level: LoggerOptions['level'], destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'order-protection' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
