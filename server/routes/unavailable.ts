// Routes that are in the contract (and openapi.json) but whose behaviour has not shipped yet
// (address verification). After authentication and validation they
// answer 501 not_implemented in the error format, never a crash.
import { initServer } from '@ts-rest/express';
import { addressesContract } from '../../contract/index.js';
import { AppError } from '../domain/errors.js';

const s = initServer();

function notYet(feature: string): never {
  throw new AppError('not_implemented', `${feature} is specified but not yet served by this deployment.`);
}

export const addressesRouter = () =>
  s.router(addressesContract, {
    verify: async () => notYet('Address verification'),
  });
