// The service's JSON logger (pino). Log lines carry route patterns, statuses and ids, never bodies
// or headers; the redaction below is the second line of defence should an object with a key,
// secret or personal data ever be logged by mistake. The personal-data keys come from the registry.
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { PERSONAL_DATA_WIRE_KEYS } from './domain/privacy/index.js';

const SECRET_KEYS = ['token', 'authorization', 'secret', 'password', 'key', 'api_key', 'headers'];

export const REDACTED_PATHS = [...new Set([...SECRET_KEYS, 'name', ...PERSONAL_DATA_WIRE_KEYS])].flatMap((field) => [field, `*.${field}`]);

export function createLogger(level: LoggerOptions['level'], destination?: DestinationStream): Logger {
  const options: LoggerOptions = {
    level,
    base: { service: 'order-protection' },
    redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
