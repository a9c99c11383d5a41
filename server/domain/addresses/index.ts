// Addresses: a shipping address standardised the USPS way and verified (a provider, or the
// sandbox's offline answer), with the verdict an order and its claims can show.
export { addressKind, standardizeAddress, type StandardizedAddress, stateCode } from './address-standardization.js';
export {
  addressInputOf,
  keptVerdicts,
  forgetAddressLookups,
  OUTSIDE_US,
  standardizeUsAddress,
  testModeVerification,
  type VerificationSettings,
  verifyAddress,
} from './address-verification.js';
export {
  type AddressChange,
  type AddressFlag,
  type AddressInput,
  type AddressVerifier,
  deliverableOf,
  type DeliveryAddress,
  settleVerification,
  unknownVerification,
  type Verification,
} from './addresses.js';
export { MILITARY_STATES, STATE_CODE_BY_NAME, US_STATES } from './us-states.js';
