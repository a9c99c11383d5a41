// Recognising the protection line among an order's lines (README, Protection SKUs and other
// integration declarations): first by SKU (the four built-in protection SKUs plus those the store
// declared), then by a phrase in the title.
// Refunds are matched by SKU only, never by title; the SKU of the line found at order.placed
// counts for that order's refunds even when the line was found by its title.

import { BUILT_IN_PROTECTION_SKUS } from '../../../contract/protection-skus.js';

/** Title phrases of the fallback, compared case-insensitively. */
export const PROTECTION_TITLE_PHRASES = ['shipping protection', 'package protection', 'order protection', 'delivery protection'] as const;

const normaliseSku = (sku: string) => sku.trim().toUpperCase();

export function isProtectionSku(sku: string | undefined | null, declaredSkus: readonly string[], orderProtectionSku?: string | null): boolean {
  if (sku === undefined || sku === null || sku.trim() === '') return false;
  const wanted = normaliseSku(sku);
  const known = [...BUILT_IN_PROTECTION_SKUS, ...declaredSkus, ...(orderProtectionSku ? [orderProtectionSku] : [])];
  return known.some((candidate) => normaliseSku(candidate) === wanted);
}

export interface LineLike {
  sku?: string | undefined;
  title: string;
}

/** Index of the protection line: a SKU match wins over a title match anywhere in the order; -1 if none. */
export function findProtectionLine(lines: readonly LineLike[], declaredSkus: readonly string[]): number {
  const bySku = lines.findIndex((line) => isProtectionSku(line.sku, declaredSkus));
  if (bySku !== -1) return bySku;
  return lines.findIndex((line) => {
    const title = line.title.toLowerCase();
    return PROTECTION_TITLE_PHRASES.some((phrase) => title.includes(phrase));
  });
}
