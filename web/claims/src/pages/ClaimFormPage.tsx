// /claims/{store}/order/claim?tracking=…: the claim form for one parcel. What happened (a reason
// whose window is closed is shown, disabled, with the reason why), which items (none: the whole
// parcel), photos of the damage (each uploaded as soon as it is chosen), and the shopper's words.
// Problems are listed in a summary that takes the focus, each linked to its field, and said again
// beside the field; the server's field errors are shown the same way.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent, type MouseEvent } from 'react';
import type { z } from 'zod';
import { fieldErrorsFromIssues } from '../../../../contract/errors.js';
import { MAX_CLAIM_PHOTOS, PHOTO_MAX_BYTES, PHOTO_TYPES, ShopperClaimRequest } from '../../../../contract/shopper/index.js';
import {
  api,
  ApiError,
  bodyOf,
  claimQuery,
  errorMessage,
  orderQuery,
  pathParam,
  photoUrl,
  reportError,
  sentence,
  uploadPhoto,
  type Order,
  type Photo,
  type Shipment,
} from '../api';
import { Contact } from '../components/Contact';
import { ErrorMessage } from '../components/ErrorMessage';
import { SubmitButton } from '../components/SubmitButton';
import { formatDate } from '../format';
import { CLAIM_REASONS, REASON_CHOICE, type ClaimReason } from '../words';
import { PageHeading } from '../components/PageHeading';

const route = getRouteApi('/$storeSlug/order/claim');

type ClaimRequest = z.infer<typeof ShopperClaimRequest>;

export function ClaimFormPage() {
  const { storeSlug } = route.useParams();
  const { tracking } = route.useSearch();
  const order = useQuery(orderQuery(storeSlug));
  const data = order.data;
  const shipment = data?.shipments.find((candidate) => candidate.tracking_number === tracking);

  return (
    <>
      <title>{data === undefined ? 'File a claim' : `File a claim · Order ${data.order_number} · ${data.store.name}`}</title>
      <p className="back-link">
        <Link to="/$storeSlug/order" params={{ storeSlug }}>
          Back to your order
        </Link>
      </p>
      <PageHeading>File a claim</PageHeading>
      {data === undefined ? (
        order.isPending ? (
          <p className="muted" aria-live="polite">
            Loading your order…
          </p>
        ) : (
          <ErrorMessage message={`Your order could not be loaded: ${errorMessage(order.error)}`} />
        )
      ) : data.status === 'cancelled' || !data.protected ? (
        <div className="notice-box">
          <p>
            {data.status === 'cancelled'
              ? 'This order was cancelled, so a claim cannot be filed on it.'
              : 'This order has no shipment protection, so a claim cannot be filed here.'}
          </p>
          <Contact store={data.store} />
        </div>
      ) : shipment === undefined ? (
        <div className="notice-box">
          <p>{tracking === '' ? 'Choose the parcel the claim is about on your order page.' : `Your order has no parcel with the tracking number ${tracking}.`}</p>
          <p>
            <Link to="/$storeSlug/order" params={{ storeSlug }}>
              See your parcels
            </Link>
          </p>
        </div>
      ) : shipment.open_claim_id !== null ? (
        <div className="notice-box">
          <p>{`A claim on the parcel ${shipment.tracking_number} is already open. The store reviews one claim per parcel at a time.`}</p>
          <p>
            <Link to="/$storeSlug/claims/$claimId" params={{ storeSlug, claimId: shipment.open_claim_id }}>
              See your claim
            </Link>
          </p>
        </div>
      ) : (
        <ClaimForm key={shipment.tracking_number} order={data} shipment={shipment} storeSlug={storeSlug} />
      )}
    </>
  );
}

interface PhotoEntry {
  key: number;
  name: string;
  state: 'uploading' | 'ready' | 'refused';
  photo?: Photo;
  message?: string;
  /** The picked file itself, shown while it uploads (the CSP allows blob: images for this). */
  preview?: string;
}

interface Problem {
  /** The field as the API names it: reason, description, photo_ids, items[0].quantity… */
  field: string;
  message: string;
}

interface ClaimFormProps {
  order: Order;
  shipment: Shipment;
  storeSlug: string;
}

const MAX_MEGABYTES = PHOTO_MAX_BYTES / 1024 / 1024;

/** Why the server refused a photo: its detail about the file when it gave one ("must be a JPEG…"). */
function refusalOf(error: unknown): string {
  const detail = error instanceof ApiError && error.status === 400 ? error.fieldErrors[0]?.message : undefined;
  return detail === undefined ? errorMessage(error) : sentence(`this file ${detail}`);
}

function ClaimForm({ order, shipment, storeSlug }: ClaimFormProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const windows = new Map(shipment.claim_windows.map((window) => [window.reason, window]));
  const [reason, setReason] = useState<ClaimReason | ''>('');
  // Ticked items by their place in the parcel's list, with the quantity as typed.
  const [picked, setPicked] = useState<Record<number, string>>({});
  const [description, setDescription] = useState('');
  const [photos, setPhotos] = useState<PhotoEntry[]>([]);
  const [photoNews, setPhotoNews] = useState('');
  const [problems, setProblems] = useState<Problem[]>([]);
  // The parcel's items in the order the last request listed them: items[k] of an error is sent[k].
  const [sentItems, setSentItems] = useState<number[]>([]);
  const [summaryRequest, setSummaryRequest] = useState(0);
  const summaryRef = useRef<HTMLElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const photosNow = useRef(photos);
  const nextKey = useRef(1);
  const sending = useRef(false);

  useEffect(() => {
    photosNow.current = photos;
  }, [photos]);

  // The previews are the browser's memory: freed when the form goes.
  useEffect(
    () => () => {
      for (const photo of photosNow.current) if (photo.preview) URL.revokeObjectURL(photo.preview);
    },
    [],
  );

  useEffect(() => {
    if (summaryRequest > 0) summaryRef.current?.focus();
  }, [summaryRequest]);

  const ids = {
    reason: (value: ClaimReason) => `${id}-reason-${value}`,
    why: (value: ClaimReason) => `${id}-reason-${value}-why`,
    reasonError: `${id}-reason-error`,
    item: (index: number) => `${id}-item-${index}`,
    quantity: (index: number) => `${id}-item-${index}-quantity`,
    quantityHint: (index: number) => `${id}-item-${index}-hint`,
    itemError: (index: number) => `${id}-item-${index}-error`,
    itemsHint: `${id}-items-hint`,
    itemsError: `${id}-items-error`,
    photos: `${id}-photos`,
    photosHint: `${id}-photos-hint`,
    photosError: `${id}-photos-error`,
    description: `${id}-description`,
    descriptionHint: `${id}-description-hint`,
    descriptionError: `${id}-description-error`,
    summaryTitle: `${id}-summary-title`,
  };

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

  /** The element a summary link moves to, and what the summary calls it. */
  const placeOf = (target: string): { element: string; label: string } | undefined => {
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

  const updatePhoto = (key: number, change: Partial<PhotoEntry>) =>
    setPhotos((current) => current.map((photo) => (photo.key === key ? { ...photo, ...change } : photo)));

  const addPhotos = (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    resolve('photos');
    // Emptied, so choosing the same file again (after removing it) is a change too.
    event.target.value = '';
    let kept = photosNow.current.filter((photo) => photo.state !== 'refused').length;
    const added: PhotoEntry[] = [];
    const news: string[] = [];
    for (const file of files) {
      const key = nextKey.current;
      nextKey.current += 1;
      if (kept >= MAX_CLAIM_PHOTOS) {
        added.push({ key, name: file.name, state: 'refused', message: `A claim can have at most ${MAX_CLAIM_PHOTOS} photos: remove one to add another.` });
        news.push(`${file.name} was not added: at most ${MAX_CLAIM_PHOTOS} photos.`);
      } else if (file.size > PHOTO_MAX_BYTES) {
        added.push({ key, name: file.name, state: 'refused', message: `This file is larger than ${MAX_MEGABYTES} MB.` });
        news.push(`${file.name} was not added: it is larger than ${MAX_MEGABYTES} MB.`);
      } else {
        kept += 1;
        added.push({ key, name: file.name, state: 'uploading', preview: URL.createObjectURL(file) });
        news.push(`Uploading ${file.name}.`);
        uploadPhoto(storeSlug, file).then(
          (photo) => {
            updatePhoto(key, { state: 'ready', photo });
            setPhotoNews(`${file.name} is uploaded.`);
          },
          (error: unknown) => {
            reportError(error);
            updatePhoto(key, { state: 'refused', message: refusalOf(error) });
            setPhotoNews(`${file.name} was not added. ${refusalOf(error)}`);
          },
        );
      }
    }
    photosNow.current = [...photosNow.current, ...added];
    setPhotos((current) => [...current, ...added]);
    setPhotoNews(news.join(' '));
  };

  const removePhoto = (entry: PhotoEntry) => {
    if (entry.preview) URL.revokeObjectURL(entry.preview);
    setPhotos((current) => current.filter((photo) => photo.key !== entry.key));
    photosNow.current = photosNow.current.filter((photo) => photo.key !== entry.key);
    setPhotoNews(`${entry.name} removed.`);
    // The button is gone: the focus goes back to where photos are added.
    fileInput.current?.focus();
  };

  const reasonError = messageFor('reason');
  const itemsError = messageFor('items');
  const photosError = messageFor('photos');
  const descriptionError = messageFor('description');
  const failure = fileClaim.isError && !(fileClaim.error instanceof ApiError && fileClaim.error.status === 400 && fileClaim.error.fieldErrors.length > 0);
  const readyCount = photos.filter((photo) => photo.state === 'ready').length;
  const describedBy = (...parts: Array<string | false | undefined>) => parts.filter(Boolean).join(' ') || undefined;

  const goTo = (event: MouseEvent<HTMLAnchorElement>, element: string) => {
    // Not a change of address (the router would take it for a new page): the field takes the focus.
    event.preventDefault();
    const target = document.getElementById(element);
    target?.focus();
    target?.scrollIntoView({ block: 'center' });
  };

  return (
    <>
      <p className="lead">
        {`Order ${order.order_number} · parcel `}
        <span className="tracking-number">{shipment.tracking_number}</span>
        {` · ${shipment.carrier}`}
      </p>

      {problems.length === 0 ? null : (
        <section className="error-summary" ref={summaryRef} tabIndex={-1} aria-labelledby={ids.summaryTitle}>
          <h2 id={ids.summaryTitle}>{problems.length === 1 ? 'There is a problem' : `There are ${problems.length} problems`}</h2>
          <ul>
            {problems.map((problem, index) => {
              const place = placeOf(targetOf(problem.field));
              return (
                <li key={`${problem.field}-${index}`}>
                  {place === undefined ? (
                    problem.message
                  ) : (
                    <a href={`#${place.element}`} onClick={(event) => goTo(event, place.element)}>
                      {`${place.label}: ${problem.message}`}
                    </a>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}

      <form onSubmit={submit} noValidate className="claim-form">
        <fieldset className="card choices">
          <legend>What happened?</legend>
          {reasonError === undefined ? null : (
            <p className="field-error" id={ids.reasonError}>
              {reasonError}
            </p>
          )}
          {CLAIM_REASONS.map((value) => {
            const window = windows.get(value);
            const closed = window !== undefined && !window.open;
            return (
              <div key={value} className={closed ? 'choice closed' : 'choice'}>
                <input
                  type="radio"
                  id={ids.reason(value)}
                  name={`${id}-reason`}
                  value={value}
                  checked={reason === value}
                  disabled={closed}
                  onChange={() => {
                    setReason(value);
                    resolve('reason', 'photos');
                  }}
                  aria-invalid={reasonError === undefined ? undefined : true}
                  aria-describedby={describedBy(closed && ids.why(value), reasonError !== undefined && ids.reasonError)}
                />
                <label htmlFor={ids.reason(value)}>{REASON_CHOICE[value]}</label>
                {closed ? (
                  <p className="choice-why" id={ids.why(value)}>
                    {window.explanation}
                    {window.opens_on === null ? null : ` You can report it from ${formatDate(window.opens_on)}.`}
                  </p>
                ) : null}
              </div>
            );
          })}
        </fieldset>

        {reason !== 'damaged' ? null : (
          <div className="card field photos-field">
            <label htmlFor={ids.photos}>Photos of the damage</label>
            <p className="field-hint" id={ids.photosHint}>
              {`Up to ${MAX_CLAIM_PHOTOS} photos, ${MAX_MEGABYTES} MB each`}
            </p>
            <input
              ref={fileInput}
              type="file"
              id={ids.photos}
              className="file-input"
              accept={PHOTO_TYPES.join(',')}
              multiple
              onChange={addPhotos}
              aria-invalid={photosError === undefined ? undefined : true}
              aria-describedby={describedBy(ids.photosHint, photosError !== undefined && ids.photosError)}
            />
            {photosError === undefined ? null : (
              <p className="field-error" id={ids.photosError}>
                {photosError}
              </p>
            )}
            {photos.length === 0 ? null : (
              <ul className="photo-list" aria-label={`Your photos: ${readyCount} ready`}>
                {photos.map((photo) => (
                  <li key={photo.key} className={`photo photo-${photo.state}`}>
                    <div className="photo-thumb">
                      {photo.state === 'ready' && photo.photo ? (
                        <img src={photoUrl(storeSlug, photo.photo.id)} alt={`Preview of ${photo.name}`} />
                      ) : photo.state === 'uploading' && photo.preview ? (
                        <img src={photo.preview} alt={`Preview of ${photo.name}`} />
                      ) : null}
                    </div>
                    <div className="photo-info">
                      <p className="photo-name">{photo.name}</p>
                      <p className="photo-state">{photo.state === 'uploading' ? 'Uploading…' : photo.state === 'ready' ? 'Ready' : 'Not added'}</p>
                    </div>
                    <button type="button" className="button secondary small" onClick={() => removePhoto(photo)}>
                      Remove<span className="visually-hidden">{` ${photo.name}`}</span>
                    </button>
                    {/* Why, across the whole row: a phone's middle column is narrow. */}
                    {photo.state === 'refused' ? <p className="photo-refusal">{photo.message}</p> : null}
                  </li>
                ))}
              </ul>
            )}
            <p className="visually-hidden" role="status" aria-atomic="true">
              {photoNews}
            </p>
          </div>
        )}

        {shipment.items.length === 0 ? null : (
          <fieldset className="card choices" aria-describedby={ids.itemsHint}>
            <legend>Which items are affected?</legend>
            <p className="field-hint" id={ids.itemsHint}>
              Leave them all unticked if it is about the whole parcel.
            </p>
            {itemsError === undefined ? null : (
              <p className="field-error" id={ids.itemsError}>
                {itemsError}
              </p>
            )}
            {shipment.items.map((line, index) => {
              const ticked = picked[index] !== undefined;
              const error = messageFor(`item:${index}`);
              return (
                <div key={`${line.source_id}-${index}`} className="choice item-choice">
                  <input
                    type="checkbox"
                    id={ids.item(index)}
                    checked={ticked}
                    onChange={(event) => {
                      const checked = event.target.checked;
                      resolve('items', `item:${index}`);
                      setPicked((current) => {
                        const next = { ...current };
                        if (checked) next[index] = String(line.quantity);
                        else delete next[index];
                        return next;
                      });
                    }}
                    aria-invalid={error !== undefined && !(ticked && line.quantity > 1) ? true : undefined}
                    aria-describedby={describedBy(error !== undefined && !(ticked && line.quantity > 1) && ids.itemError(index))}
                  />
                  <label htmlFor={ids.item(index)}>
                    {line.name}
                    {line.quantity > 1 ? <span className="muted">{` × ${line.quantity}`}</span> : null}
                  </label>
                  {ticked && line.quantity > 1 ? (
                    <div className="quantity">
                      <label htmlFor={ids.quantity(index)}>
                        How many<span className="visually-hidden">{` ${line.name}`}</span>?
                      </label>
                      <input
                        id={ids.quantity(index)}
                        type="number"
                        inputMode="numeric"
                        min={1}
                        max={line.quantity}
                        step={1}
                        value={picked[index]}
                        onChange={(event) => {
                          setPicked((current) => ({ ...current, [index]: event.target.value }));
                          resolve(`item:${index}`);
                        }}
                        aria-invalid={error === undefined ? undefined : true}
                        aria-describedby={describedBy(ids.quantityHint(index), error !== undefined && ids.itemError(index))}
                      />
                      <span className="muted" id={ids.quantityHint(index)}>{`of ${line.quantity}`}</span>
                    </div>
                  ) : null}
                  {error === undefined ? null : (
                    <p className="field-error" id={ids.itemError(index)}>
                      {error}
                    </p>
                  )}
                </div>
              );
            })}
          </fieldset>
        )}

        <div className="card field">
          <label htmlFor={ids.description}>What happened</label>
          <p className="field-hint" id={ids.descriptionHint}>
            Tell the store what went wrong, in your own words. Up to 5000 characters.
          </p>
          <textarea
            id={ids.description}
            className="text-input"
            rows={5}
            required
            value={description}
            onChange={(event) => {
              setDescription(event.target.value);
              resolve('description');
            }}
            aria-invalid={descriptionError === undefined ? undefined : true}
            aria-describedby={describedBy(ids.descriptionHint, descriptionError !== undefined && ids.descriptionError)}
          />
          {descriptionError === undefined ? null : (
            <p className="field-error" id={ids.descriptionError}>
              {descriptionError}
            </p>
          )}
        </div>

        <ErrorMessage message={failure ? `Your claim was not sent: ${errorMessage(fileClaim.error)}` : undefined} />
        {/* A conflict is the order's state (a claim already open, a window just closed): see it there. */}
        {fileClaim.error instanceof ApiError && fileClaim.error.status === 409 ? (
          <p className="conflict-link">
            <Link to="/$storeSlug/order" params={{ storeSlug }}>
              See your order and its claims
            </Link>
          </p>
        ) : null}
        <SubmitButton busy={fileClaim.isPending} busyLabel="Submitting…">
          Submit claim
        </SubmitButton>
      </form>
    </>
  );
}
