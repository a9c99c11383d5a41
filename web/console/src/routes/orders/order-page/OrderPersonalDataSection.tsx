// The shopper: whether the service still holds their personal data for this order, and their contact
// (email, phone, shipping address) for the roles that decide claims; viewers are told who sees it.
// An owner erases the personal data from here, after a confirmation that says what goes and what
// stays. Once erased, the section says so rather than showing empty names.
import { useEffect, useRef, useState } from 'react';
import { Facts, Section } from '../../../components/Section';
import type { OrderDetail } from '../labels';
import { ContactFacts } from './ContactFacts';
import { OrderEraseDialog } from './OrderEraseDialog';

interface OrderPersonalDataSectionProps {
  detail: OrderDetail;
  /** Whether the user's role is one that decides claims, to whom the server sends the contact. */
  seesContact: boolean;
  mayErase: boolean;
}

export function OrderPersonalDataSection({ detail, seesContact, mayErase }: OrderPersonalDataSectionProps) {
  const { order, contact } = detail;
  const erased = detail.personal_data === 'erased';
  const [confirming, setConfirming] = useState(false);
  // Which order was just erased here: the page stays mounted from one order to another.
  const [justErased, setJustErased] = useState<string | null>(null);
  const done = justErased === order.source_order_id;
  const doneRef = useRef<HTMLParagraphElement>(null);
  // The button that opened the confirmation is gone with the data: the focus goes to what happened.
  useEffect(() => {
    if (done) doneRef.current?.focus();
  }, [done]);

  const name = [order.first_name, order.last_name].filter((part) => part !== null && part !== '').join(' ');
  return (
    <Section title="Shopper">
      <p className={done ? 'orders-erase-done' : 'orders-erase-done empty'} role="status" ref={doneRef} tabIndex={-1}>
        {done ? "Done: the shopper's personal data is erased from this order." : null}
      </p>
      {erased ? (
        <>
          <p className="orders-personal-data orders-personal-data-erased">Personal data: erased</p>
          <p className="warning">
            <strong>The shopper&apos;s personal data was erased.</strong> Their name, email, phone and addresses are no longer held for this order. Its
            amounts, items, shipments, claims and premium ledger are kept.
          </p>
        </>
      ) : seesContact && contact !== null ? (
        <ContactFacts contact={contact} extra={[['Personal data', 'Kept']]} />
      ) : (
        <>
          <Facts
            items={[
              ['Name', name === '' ? <span className="muted">Not given</span> : name],
              ['Personal data', 'Kept'],
            ]}
          />
          <p className="muted orders-contact-note">
            {seesContact
              ? 'The store sent no email, phone or shipping address for this shopper.'
              : 'The contact details (email, phone and shipping address) are shown to owners and admins.'}
          </p>
        </>
      )}
      {erased ? null : mayErase ? (
        <div className="orders-erase">
          <p className="muted orders-erase-hint">If the shopper asks, erase their personal data from this order. You will be asked to confirm.</p>
          <button type="button" className="button danger-outline" onClick={() => setConfirming(true)}>
            Erase personal data…
          </button>
          <OrderEraseDialog
            open={confirming}
            detail={detail}
            onClose={() => setConfirming(false)}
            onErased={() => {
              setConfirming(false);
              setJustErased(order.source_order_id);
            }}
          />
        </div>
      ) : seesContact ? (
        <p className="muted orders-erase-hint">An owner can erase the shopper&apos;s personal data from this page.</p>
      ) : null}
    </Section>
  );
}
