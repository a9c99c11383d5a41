// Chooses the address verifier from the configuration (docs/addresses.md): ADDRESS_VERIFIER names
// one, or "auto" (the default) takes USPS when its credentials are set, else Smarty when its
// credentials are set, else the offline verifier, which needs no account and no network.
import type { Config } from '../config.js';
import type { AddressVerifier } from '../domain/addresses/index.js';
import { createOfflineVerifier } from './offline.js';
import { createSmartyVerifier } from './smarty.js';
import { createUspsVerifier } from './usps.js';

export function createAddressVerifier(settings: Config['addressVerifier']): AddressVerifier {
  const { choice, usps, smarty } = settings;
  if ((choice === 'usps' || choice === 'auto') && usps) {
    return createUspsVerifier({ clientId: usps.clientId, clientSecret: usps.clientSecret, ...(usps.baseUrl ? { baseUrl: usps.baseUrl } : {}) });
  }
  if ((choice === 'smarty' || choice === 'auto') && smarty) {
    return createSmartyVerifier({ authId: smarty.authId, authToken: smarty.authToken, ...(smarty.baseUrl ? { baseUrl: smarty.baseUrl } : {}) });
  }
  return createOfflineVerifier();
}
