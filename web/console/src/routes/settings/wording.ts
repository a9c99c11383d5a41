// How the settings page says what each declaration changes (README, "Protection SKUs and other
// integration declarations") and what each claim page setting does, and a rate in basis points as
// a percentage, exactly.
import { BUILT_IN_PROTECTION_SKUS } from '../../../../../contract/protection-skus.js';
import { DEFAULT_ACCENT_COLOR, DEFAULT_CLAIM_WINDOWS, PHOTO_MAX_BYTES } from '../../../../../contract/shopper/index.js';
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

export const CLAIM_WINDOW_DEFAULTS = DEFAULT_CLAIM_WINDOWS;

export const days = (count: number) => `${count} ${count === 1 ? 'day' : 'days'}`;

export const LOST_WINDOW_EXPLANATION = `Shoppers can report a parcel lost once it has gone this many days without a carrier scan. The default, ${days(CLAIM_WINDOW_DEFAULTS.lost_after_days)}, leaves carriers time to find a late parcel.`;

export const AFTER_DELIVERY_WINDOW_EXPLANATION = `Shoppers can report damage, missing items or a stolen parcel up to this many days after delivery. The default, ${days(CLAIM_WINDOW_DEFAULTS.after_delivery_days)}, gives them time to open the parcel and check it.`;

export const WINDOWS_EXPLANATION = 'When shoppers may file each kind of claim on the page. Claims your store files through the API are not held to them.';

export const ACCENT_EXPLANATION = "The colour of the claim page's buttons and links.";

/**
 * Where the colour picker starts while the store has no accent of its own (an <input type="color">
 * always holds a colour): the claim page's default. The page says "Default" beside it, and saves
 * null until a colour is picked.
 */
export const PICKER_START_COLOR = DEFAULT_ACCENT_COLOR;

export const SUPPORT_EXPLANATION = 'The claim page offers shoppers these ways to reach you. Leave one empty to leave it out.';

/** The largest logo the server takes: the same limit as a photo's. */
export const LOGO_MAX_BYTES = PHOTO_MAX_BYTES;

export const LOGO_EXPLANATION = 'Shown at the top of the claim page. JPEG, PNG or WebP, at most 10 MB.';
