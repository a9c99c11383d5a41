// The claim form's state and its rules: what the shopper chose and typed, the problems found (by the
// page before sending, or by the server after) and which field each belongs to, and the request
// itself. A claim filed goes to its own page, and the order is read again (it now has the claim).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { fieldErrorsFromIssues } from '../../../../../contract/errors.js';
import { ShopperClaimRequest } from '../../../../../contract/shopper/index.js';
import { api, ApiError, bodyOf, claimQuery, orderQuery, pathParam, sentence, type Shipment } from '../../api';
import { CLAIM_REASONS, type ClaimReason } from '../../words';
import { formIds } from './field-ids';
import { usePhotoUploads } from './usePhotoUploads';

type ClaimRequest = z.infer<typeof ShopperClaimRequest>;

export interface Problem {
  /** The field as the API names it: reason, description, photo_ids, items[0].quantity… */
  field: string;
  message: string;
}

/** The element a summary link moves to, and what the summary calls it. */
export interface Place {
  element: string;
  label: string;
}

export function useClaimForm(shipment: Shipment, storeSlug: string) {
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const windows = new Map(shipment.claim_windows.map((window) => [window.reason, window]));
  const [reason, setReason] = useState<ClaimReason | ''>('');
  // Ticked items by their place in the parcel's list, with the quantity as typed.
  const [picked, setPicked] = useState<Record<number, string>>({});
  const [description, setDescription] = useState('');
  const uploads = usePhotoUploads(storeSlug, () => resolve('photos'));
  const { photos } = uploads;
  const [problems, setProblems] = useState<Problem[]>([]);
  // The parcel's items in the order the last request listed them: items[k] of an error is sent[k].
  const [sentItems, setSentItems] = useState<number[]>([]);
  const [summaryRequest, setSummaryRequest] = useState(0);
  const summaryRef = useRef<HTMLElement>(null);
  const sending = useRef(false);

  useEffect(() => {
    if (summaryRequest > 0) summaryRef.current?.focus();
  }, [summaryRequest]);

  const ids = formIds(id);

  /** Which part of the form a field error belongs to. */
  const targetOf = (field: string): string => {
    if (field === 'reason' || field === 'description') return field;
    if (field === 'photo_ids' || field.startsWith('photo_ids[')) return 'photos';
    const item = /^items\[(\d+)\]/.exec(field);
    if (item) {
      const index = sentItems[Number(item[1])];
      return index === undefined ? 'items' : `item:${index}`;
    }
    return field === 'items' ? 'items' : 'form';
  };

  const messageFor = (target: string) => {
    const found = problems.filter((problem) => targetOf(problem.field) === target).map((problem) => problem.message);
    return found.length === 0 ? undefined : found.join(' ');
  };

  /** Where the summary's link for a field error moves to, and what it calls the field. */
  const placeOf = (field: string): Place | undefined => {
    const target = targetOf(field);
    if (target === 'reason') {
      const first = CLAIM_REASONS.find((value) => value === reason) ?? CLAIM_REASONS.find((value) => windows.get(value)?.open !== false);
      return first === undefined ? undefined : { element: ids.reason(first), label: 'What happened' };
    }
    if (target === 'description') return { element: ids.description, label: 'Description' };
    if (target === 'photos') return { element: ids.photos, label: 'Photos' };
    if (target === 'items') return shipment.items.length === 0 ? undefined : { element: ids.item(0), label: 'Items' };
    const item = /^item:(\d+)$/.exec(target);
    if (item) {
      const index = Number(item[1]);
      const line = shipment.items[index];
      if (line === undefined) return undefined;
      const hasQuantity = picked[index] !== undefined && line.quantity > 1;
      return { element: hasQuantity ? ids.quantity(index) : ids.item(index), label: line.name };
    }
    return undefined;
  };

  /** The shopper changed a part of the form: what was said about it no longer holds. */
  const resolve = (...targets: string[]) => setProblems((current) => current.filter((problem) => !targets.includes(targetOf(problem.field))));

  const fileClaim = useMutation({
    mutationFn: async (body: ClaimRequest) => bodyOf(await api.fileClaim({ params: { store_slug: pathParam(storeSlug) }, body }), 201),
    onSuccess: async (claim) => {
      queryClient.setQueryData(claimQuery(storeSlug, claim.id).queryKey, claim);
      void queryClient.invalidateQueries({ queryKey: orderQuery(storeSlug).queryKey });
      // Replaced: Back from the claim goes to the order, not to a form already sent.
      await navigate({ to: '/$storeSlug/claims/$claimId', params: { storeSlug, claimId: claim.id }, replace: true });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 400 && error.fieldErrors.length > 0) {
        setProblems(error.fieldErrors.map((item) => ({ field: item.field, message: sentence(item.message) })));
        setSummaryRequest((count) => count + 1);
      }
    },
  });

  /** The request the form makes, or what stops it: the contract's own rules, and the page's. */
  function check(): { problems: Problem[]; body: ClaimRequest | undefined; sent: number[] } {
    const found: Problem[] = [];
    const sent = shipment.items.map((_, index) => index).filter((index) => picked[index] !== undefined);
    const items = sent.map((index, position) => {
      const line = shipment.items[index] as Shipment['items'][number];
      const typed = (picked[index] ?? '').trim();
      const quantity = line.quantity === 1 ? 1 : /^\d+$/.test(typed) ? Number(typed) : Number.NaN;
      if (!(quantity >= 1 && quantity <= line.quantity)) {
        found.push({ field: `items[${position}].quantity`, message: `Enter a number from 1 to ${line.quantity}.` });
      }
      return { source_id: line.source_id, quantity };
    });
    if (reason === '') found.push({ field: 'reason', message: 'Choose what happened.' });
    if (reason === 'damaged') {
      const kept = photos.filter((photo) => photo.state !== 'refused');
      if (kept.some((photo) => photo.state === 'uploading')) found.push({ field: 'photo_ids', message: 'Wait until your photos have finished uploading.' });
      else if (kept.length === 0) found.push({ field: 'photo_ids', message: 'Add at least one photo of the damage.' });
    }
    if (description.trim() === '') found.push({ field: 'description', message: 'Describe what happened.' });
    if (found.length > 0 || reason === '') return { problems: found, body: undefined, sent };

    const body: ClaimRequest = {
      tracking_number: shipment.tracking_number,
      reason,
      description: description.trim(),
      items,
      photo_ids: reason === 'damaged' ? photos.flatMap((photo) => (photo.state === 'ready' && photo.photo ? [photo.photo.id] : [])) : [],
    };
    const parsed = ShopperClaimRequest.safeParse(body);
    // The tracking number is the server's own: only the server judges it.
    const rules = parsed.success ? [] : fieldErrorsFromIssues(parsed.error.issues).filter((item) => item.field !== 'tracking_number');
    return { problems: rules.map((item) => ({ field: item.field, message: sentence(item.message) })), body, sent };
  }

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // A second tap before the first answer: one request. (The button's state shows a render later.)
    if (sending.current) return;
    const checked = check();
    setSentItems(checked.sent);
    setProblems(checked.problems);
    if (checked.problems.length > 0 || checked.body === undefined) {
      fileClaim.reset();
      setSummaryRequest((count) => count + 1);
      return;
    }
    sending.current = true;
    fileClaim.mutate(checked.body, {
      onSettled: () => {
        sending.current = false;
      },
    });
  };

  return {
    id,
    ids,
    windows,
    reason,
    setReason,
    picked,
    setPicked,
    description,
    setDescription,
    uploads,
    problems,
    summaryRef,
    messageFor,
    placeOf,
    resolve,
    fileClaim,
    submit,
  };
}
