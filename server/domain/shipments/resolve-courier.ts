// Which carrier a shipment is registered with: the courier_id sent, else the one its tracking
// number's format names, else sandbox for a documented sandbox number, else unknown (a note tells
// the merchant).
import { detectCarrier, normalizeCourierId } from './carriers.js';
import { type MerchantMessage, SANDBOX_COURIER, SANDBOX_TRACKING_NUMBERS, UNKNOWN_COURIER } from './shipment-record.js';

/** The carrier a shipment is registered with, and a note for the merchant when the courier_id sent named none we know. */
export interface ResolvedCourier {
  courier: string;
  message: MerchantMessage | null;
}

/**
 * The carrier of a new shipment: the courier_id given (normalised), else detected from the number,
 * else "sandbox" for one of the sandbox's scripted numbers (docs/tracking.md), else unknown. A
 * courier_id that names no carrier we know ("My carrier", "custom", "") counts as omitted: the
 * shipment is still registered, as a tracking number is never to be lost over its carrier's name,
 * and a merchant message records the name that was sent.
 */
export function resolveCourier(input: { courier_id?: string | null | undefined; tracking_number: string }, now: Date): ResolvedCourier {
  const sent = input.courier_id ?? '';
  const named = namedCourier(sent);
  if (named !== null) return { courier: named, message: null };
  const courier = detectCarrier(input.tracking_number) ?? (isSandboxTrackingNumber(input.tracking_number) ? SANDBOX_COURIER : UNKNOWN_COURIER);
  if (sent.trim() === '') return { courier, message: null };
  return { courier, message: unknownCourierIdMessage(sent, courier, now) };
}

/** The carrier a courier_id names; null for an empty one or a name we do not know (both read as omitted). */
export function namedCourier(sent: string): string | null {
  return sent.trim() === '' ? null : normalizeCourierId(sent);
}

export function unknownCourierIdMessage(sent: string, courier: string, now: Date): MerchantMessage {
  return {
    code: 'courier_id_unknown',
    message: `courier_id "${sent}" names no carrier we know (docs/carriers.md lists them), so it was read as omitted; the shipment's carrier is ${courier}.`,
    created_on: now.toISOString(),
  };
}

/** One of the sandbox's scripted numbers, after the API's normalisation (spaces and dashes removed, upper case). */
export function isSandboxTrackingNumber(trackingNumber: string): boolean {
  return (SANDBOX_TRACKING_NUMBERS as readonly string[]).includes(trackingNumber.replace(/[\s-]+/g, '').toUpperCase());
}
