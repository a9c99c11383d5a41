// How the settings page says what each declaration changes (README, "Protection SKUs and other
// integration declarations"), and a rate in basis points as a percentage, exactly.
import { BUILT_IN_PROTECTION_SKUS } from '../../../../../contract/protection-skus.js';
import type { Settings } from './queries';

/** 150 → "1.50 %": integer arithmetic on the basis points, so no float can round a digit away. */
export function formatRateBps(bps: number): string {
  const magnitude = Math.abs(bps);
  const whole = Math.trunc(magnitude / 100);
  const hundredths = magnitude - whole * 100;
  return `${bps < 0 ? '-' : ''}${whole}.${String(hundredths).padStart(2, '0')} %`;
}

export interface Choice<T extends string> {
  value: T;
  label: string;
  hint: string;
}

const builtIn = `${BUILT_IN_PROTECTION_SKUS.slice(0, -1).join(', ')} and ${BUILT_IN_PROTECTION_SKUS.at(-1) ?? ''}`;

export const SKU_EXPLANATION = `Order lines with these SKUs are the protection line, besides the built-in ${builtIn} (any casing). Declare yours, or a renamed protection product books orders as unprotected.`;

export const QUOTE_ORIGIN_EXPLANATION =
  'Who asks for quotes, which decides how they are rate limited: per store for server calls, per shopper IP for a browser widget.';

export const QUOTE_ORIGINS: ReadonlyArray<Choice<Settings['quote_origin']>> = [
  { value: 'backend', label: 'Backend', hint: 'Your server or platform asks for quotes.' },
  { value: 'browser', label: 'Browser', hint: "A widget in the shopper's browser asks for quotes." },
];

export const CLIENT_PROFILE_EXPLANATION =
  "Route for a store running Route's own plugins (WooCommerce, PrestaShop, Magento 1): without it their requests are refused and WooCommerce adds no fee at checkout.";

export const CLIENT_PROFILES: ReadonlyArray<Choice<Settings['client_profile']>> = [
  { value: 'standard', label: 'Standard', hint: 'Requests are read in the documented forms only.' },
  { value: 'route', label: 'Route', hint: "Route's ids, amounts and dates are read into the documented forms; quotes answer in Route's vocabulary." },
];

export const labelOf = <T extends string>(choices: ReadonlyArray<Choice<T>>, value: T): Choice<T> | undefined => choices.find((choice) => choice.value === value);
