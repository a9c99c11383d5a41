// The owner's confirmation before erasing the shopper's personal data from an order: what goes, what
// stays, and that it cannot be undone. The erasure is the API's redact (POST /v2/orders/{id}/redact),
// through the console's route. A refusal (409 while a claim is open) keeps the dialog open with the
// server's reason.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { ApiError, errorMessage } from '../../../api';
import { Dialog } from '../../../components/Dialog';
import { ErrorMessage } from '../../../components/ErrorMessage';
import { CLAIMS_KEY } from '../../claims/claims';
import type { OrderDetail } from '../labels';
import { ORDER_SEARCH_KEY, orderQuery, redactOrder } from '../queries';

interface OrderEraseDialogProps {
  open: boolean;
  detail: OrderDetail;
  onClose: () => void;
  /** After the erasure, with the order as the server now answers it. */
  onErased: (detail: OrderDetail) => void;
}

export function OrderEraseDialog({ open, detail, onClose, onErased }: OrderEraseDialogProps) {
  const id = useId();
  const queryClient = useQueryClient();
  const sourceOrderId = detail.order.source_order_id;
  const erase = useMutation({
    mutationFn: () => redactOrder(sourceOrderId),
    onSuccess: async (erased) => {
      onErased(erased);
      queryClient.setQueryData(orderQuery(sourceOrderId).queryKey, erased);
      // The list shows the name and finds by it; the claim pages show the contact and the texts.
      await Promise.all([queryClient.invalidateQueries({ queryKey: ORDER_SEARCH_KEY }), queryClient.invalidateQueries({ queryKey: CLAIMS_KEY })]);
    },
  });

  const close = () => {
    erase.reset();
    onClose();
  };

  const failure =
    erase.error === null
      ? undefined
      : erase.error instanceof ApiError && erase.error.status === 409
        ? `Nothing was erased. ${errorMessage(erase.error)}`
        : `Nothing was erased: ${errorMessage(erase.error)}`;

  return (
    <Dialog open={open} onClose={close} labelledBy={`${id}-title`} describedBy={`${id}-summary`}>
      <div className="dialog-body orders-erase-dialog">
        <h2 id={`${id}-title`}>Erase the shopper&apos;s personal data?</h2>
        <p id={`${id}-summary`}>
          {`From order ${detail.order.source_order_number}. `}
          <strong>This cannot be undone.</strong>
        </p>
        <div className="orders-erase-lists">
          <div>
            <h3>Erased</h3>
            <ul>
              <li>The shopper&apos;s name, email and phone</li>
              <li>The shipping and billing addresses</li>
              <li>Claim descriptions, decision and refund notes, and the shopper&apos;s claim photos</li>
              <li>The items&apos; image links</li>
            </ul>
          </div>
          <div>
            <h3>Kept</h3>
            <ul>
              <li>The order, its numbers and amounts</li>
              <li>Its items, shipments and tracking</li>
              <li>Its claims and their decisions, without their texts</li>
              <li>The premium ledger: billing does not change</li>
            </ul>
          </div>
        </div>
        <p className="muted orders-erase-after">
          Afterwards the order is found by its number but no longer by the shopper&apos;s name or email, and the shopper can no longer find it on your
          claim page.
        </p>
        <ErrorMessage message={failure} />
        <div className="dialog-actions">
          {/* Cancel first: it is what the dialog focuses when it opens. */}
          <button type="button" className="button secondary" onClick={close}>
            Cancel
          </button>
          {/* aria-disabled, not disabled: a disabled button loses the keyboard's focus to the page. */}
          <button
            type="button"
            className="button danger"
            aria-disabled={erase.isPending}
            onClick={() => {
              if (!erase.isPending) erase.mutate();
            }}
          >
            {erase.isPending ? 'Erasing…' : 'Erase personal data'}
          </button>
        </div>
      </div>
    </Dialog>
  );
}
