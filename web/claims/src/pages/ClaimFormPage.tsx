// /claims/{store}/order/claim?tracking=…: the claim form for one parcel. What happened (a reason
// whose window is closed is shown, disabled, with the reason why), which items (none: the whole
// parcel), photos of the damage (each uploaded as soon as it is chosen), and the shopper's words.
// Problems are listed in a summary that takes the focus, each linked to its field, and said again
// beside the field; the server's field errors are shown the same way.
// The form's parts, its state and its rules are in claim-form/.
import { useQuery } from '@tanstack/react-query';
import { getRouteApi, Link } from '@tanstack/react-router';
import { ApiError, errorMessage, orderQuery, type Order, type Shipment } from '../api';
import { Contact } from '../components/Contact';
import { ErrorMessage } from '../components/ErrorMessage';
import { SubmitButton } from '../components/SubmitButton';
import { PageHeading } from '../components/PageHeading';
import { ErrorSummary } from './claim-form/ErrorSummary';
import { describedBy } from './claim-form/field-ids';
import { ItemsField } from './claim-form/ItemsField';
import { PhotosField } from './claim-form/PhotosField';
import { ReasonField } from './claim-form/ReasonField';
import { useClaimForm } from './claim-form/useClaimForm';

const route = getRouteApi('/$storeSlug/order/claim');

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

interface ClaimFormProps {
  order: Order;
  shipment: Shipment;
  storeSlug: string;
}

function ClaimForm({ order, shipment, storeSlug }: ClaimFormProps) {
  const { id, ids, windows, reason, setReason, picked, setPicked, description, setDescription, uploads, problems, summaryRef, messageFor, placeOf, resolve, fileClaim, submit } =
    useClaimForm(shipment, storeSlug);

  const reasonError = messageFor('reason');
  const itemsError = messageFor('items');
  const photosError = messageFor('photos');
  const descriptionError = messageFor('description');
  const failure = fileClaim.isError && !(fileClaim.error instanceof ApiError && fileClaim.error.status === 400 && fileClaim.error.fieldErrors.length > 0);

  return (
    <>
      <p className="lead">
        {`Order ${order.order_number} · parcel `}
        <span className="tracking-number">{shipment.tracking_number}</span>
        {` · ${shipment.carrier}`}
      </p>

      {problems.length === 0 ? null : <ErrorSummary problems={problems} summaryRef={summaryRef} titleId={ids.summaryTitle} placeOf={placeOf} />}

      <form onSubmit={submit} noValidate className="claim-form">
        <ReasonField
          id={id}
          ids={ids}
          windows={windows}
          reason={reason}
          error={reasonError}
          onChoose={(value) => {
            setReason(value);
            resolve('reason', 'photos');
          }}
        />

        {reason !== 'damaged' ? null : <PhotosField ids={ids} uploads={uploads} error={photosError} storeSlug={storeSlug} />}

        {shipment.items.length === 0 ? null : (
          <ItemsField ids={ids} items={shipment.items} picked={picked} setPicked={setPicked} error={itemsError} messageFor={messageFor} resolve={resolve} />
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
