// The claim page's typed client of the shopper API (contract/shopper): every request and answer is
// typed from the same contract the server implements. The session's CSRF token (../../shared/csrf-session)
// comes from the lookup, then from every read of the order.
import { initClient } from '@ts-rest/core';
import { queryOptions, type QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { ApiError, bodyOf, failureMessage, pathParam } from '../../shared/api-errors';
import { csrfSession } from '../../shared/csrf-session';
import {
  SHOPPER_CSRF_HEADER,
  ShopperPhoto,
  shopperApiBase,
  shopperContract,
  type ShopperClaim,
  type ShopperOrder,
  type ShopperStore,
} from '../../../contract/shopper/index.js';

export type Store = z.infer<typeof ShopperStore>;
export type Order = z.infer<typeof ShopperOrder>;
export type Shipment = Order['shipments'][number];
export type Claim = z.infer<typeof ShopperClaim>;
export type Photo = z.infer<typeof ShopperPhoto>;

const session = csrfSession(SHOPPER_CSRF_HEADER);

export const rememberSession = session.remember;

export const api = initClient(shopperContract, session.clientOptions);

export { ApiError, bodyOf, fieldError, pathParam, sentence } from '../../shared/api-errors';

/** What to tell the shopper about a failed request. */
export const errorMessage = (error: unknown) => failureMessage(error, 'The page');

/** Whether the answer says the session is missing or has ended. */
export const isSessionEnded = (error: unknown): error is ApiError => error instanceof ApiError && error.status === 401;

/** A 404 (or a 400 for a slug or id that cannot be one): there is no such thing. */
export const isMissing = (error: unknown) => error instanceof ApiError && (error.status === 404 || error.status === 400);

/** Where a store's shopper API lives, with its slug encoded. */
const base = (storeSlug: string) => shopperApiBase(pathParam(storeSlug));

/** The address of an uploaded photo (GET photo: the session's cookie reads it). */
export const photoUrl = (storeSlug: string, photoId: string) => `${base(storeSlug)}/photos/${pathParam(photoId)}`;

/**
 * Uploads one photo: the image itself as the body, which the typed client cannot send. The 201 body
 * is read with the contract's own schema; anything else becomes an ApiError like every other answer.
 */
export async function uploadPhoto(storeSlug: string, file: File): Promise<Photo> {
  const response = await fetch(`${base(storeSlug)}/photos`, {
    method: 'POST',
    body: file,
    headers: { 'Content-Type': file.type || 'application/octet-stream', ...session.changeHeaders() },
    credentials: 'same-origin',
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (response.status !== 201) throw new ApiError(response.status, body);
  const photo = ShopperPhoto.safeParse(body);
  if (!photo.success) throw new ApiError(500, undefined);
  return photo.data;
}

export const storeQuery = (storeSlug: string) =>
  queryOptions({
    queryKey: ['store', storeSlug] as const,
    queryFn: async (): Promise<Store> => bodyOf(await api.store({ params: { store_slug: pathParam(storeSlug) } }), 200),
    staleTime: 5 * 60_000,
  });

export const orderQuery = (storeSlug: string) =>
  queryOptions({
    queryKey: ['order', storeSlug] as const,
    queryFn: async (): Promise<Order> => {
      const order = bodyOf(await api.order({ params: { store_slug: pathParam(storeSlug) } }), 200);
      rememberSession(order.session);
      return order;
    },
  });

export const claimQuery = (storeSlug: string, claimId: string) =>
  queryOptions({
    queryKey: ['claim', storeSlug, claimId] as const,
    queryFn: async (): Promise<Claim> => bodyOf(await api.claim({ params: { store_slug: pathParam(storeSlug), claim_id: pathParam(claimId) } }), 200),
  });

/** Forgets the session and everything read under it; the store's own data stays. */
export function forgetSession(queryClient: QueryClient): void {
  rememberSession(null);
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'store' });
  queryClient.getMutationCache().clear();
}

/** What the lookup page says when it opens after the session ended (or a logout); read once. */
let pendingNotice: string | undefined;

export function leaveNotice(message: string): void {
  pendingNotice = message;
}

export function takeNotice(): string | undefined {
  const notice = pendingNotice;
  pendingNotice = undefined;
  return notice;
}

export const SESSION_ENDED = 'Your session has ended. Look up your order again.';

/**
 * Where an error of a request made outside React Query goes (a photo upload): main.tsx listens, as
 * it does for every query and mutation, so a 401 anywhere ends the session the same way.
 */
let errorListener: (error: unknown) => void = () => undefined;

export function listenForErrors(listener: (error: unknown) => void): void {
  errorListener = listener;
}

export function reportError(error: unknown): void {
  errorListener(error);
}
