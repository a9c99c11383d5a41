// A store's claim-page logo as the console and the claim page link it.
import { storeLogoUrl } from '../../contract/shopper/index.js';
import type { ClaimPageSettings } from '../domain/claim-page.js';

export const logoPath = (settings: Pick<ClaimPageSettings, 'slug' | 'logoVersion'>): string | null =>
  settings.logoVersion === null ? null : storeLogoUrl(settings.slug, settings.logoVersion);
