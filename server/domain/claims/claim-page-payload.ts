// A store's claim page settings as the console's settings (and the operator's CLI) answer them, and
// the logo's URL as the console and the claim page link it.
import type { z } from 'zod';
import type { ConsoleSettings } from '../../../contract/console/settings.js';
import { storeLogoUrl } from '../../../contract/shopper/index.js';
import type { ClaimPageSettings } from './claim-page-settings.js';

export const logoPath = (settings: Pick<ClaimPageSettings, 'slug' | 'logoVersion'>): string | null =>
  settings.logoVersion === null ? null : storeLogoUrl(settings.slug, settings.logoVersion);

export function toClaimPageResponse(settings: ClaimPageSettings): z.input<typeof ConsoleSettings>['claim_page'] {
  return {
    url_path: `/claims/${settings.slug}`,
    accent_color: settings.accentColor,
    support_email: settings.supportEmail,
    support_url: settings.supportUrl,
    logo_url: logoPath(settings),
    lost_after_days: settings.windows.lostAfterDays,
    after_delivery_days: settings.windows.afterDeliveryDays,
  };
}
