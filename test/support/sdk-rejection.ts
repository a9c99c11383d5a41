// The error an SDK call rejects with, checked to be one of the SDK's errors: for the SDK tests that
// make a call fail on purpose.
import { expect } from 'vitest';
import { OrderProtectionError } from '../../sdk/src/index.js';

/** The error a call rejects with, checked to be one of the SDK's. */
export async function rejection(promise: Promise<unknown>): Promise<OrderProtectionError> {
  const error = await promise.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(OrderProtectionError);
  return error as OrderProtectionError;
}
