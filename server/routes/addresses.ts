import { initServer } from '@ts-rest/express';
import type { z } from 'zod';
import { addressesContract, type AddressVerificationRequest, type AddressVerificationResponse } from '../../contract/index.js';
import { type AddressInput, addressInputOf, deliverableOf, type Verification } from '../domain/addresses/index.js';

import type { AppDeps } from '../deps.js';
import { scopeOf } from '../http/route-policy.js';
import { commandsFor } from '../domain/sandbox/index.js';

const s = initServer();

type Body = z.output<typeof AddressVerificationRequest>;

/** The body's address (or shipping_details in its place); names and phones are never read. */
const addressInput = (body: Body): AddressInput => addressInputOf(body.address ?? body.shipping_details ?? {});

function toResponse(verification: Verification): z.input<typeof AddressVerificationResponse> {
  const { address } = verification;
  return {
    verdict: verification.verdict,
    deliverable: deliverableOf(verification.verdict),
    reason: verification.reason,
    message: verification.message,
    address:
      address === null
        ? null
        : {
            street_address1: address.streetAddress1,
            street_address2: address.streetAddress2,
            city: address.city,
            province: address.province,
            zip: address.zip,
            zip4: address.zip4,
            country_code: 'US',
          },
    changes: verification.changes,
    flags: verification.flags,
  };
}

export const addressesRouter = ({ db, clock, addresses }: AppDeps) =>
  s.router(addressesContract, {
    verify: async ({ body, req }) => {
      // Every request counts against the address limits, cached or not: the rate limiter sits in
      // front of this route (the counting point), before any cache is consulted.
      const verification = await commandsFor(scopeOf(req).mode).verifyAddress(db, addresses, addressInput(body), clock.now());
      return { status: 200, body: toResponse(verification) };
    },
  });
