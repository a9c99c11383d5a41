// The shopper's contact on the claim page (email, phone, shipping address), for the roles that decide
// claims: who to reach about it. The claim's read carries it (null for viewers, and once erased);
// the order, which the page reads anyway, says whether its personal data was erased.
import { consoleContract } from '../../../../../contract/console/index.js';
import type { ConsoleRole } from '../../../../../contract/policy.js';
import { mayCall } from '../../api';
import { Section } from '../../components/Section';
import { ContactFacts } from '../orders/order-page/ContactFacts';
import type { ClaimDetail, ClaimOrder } from './claims';
import '../orders/orders.css';

interface ClaimContactSectionProps {
  detail: ClaimDetail;
  order: ClaimOrder;
  role: ConsoleRole;
}

export function ClaimContactSection({ detail, order, role }: ClaimContactSectionProps) {
  const erased = order.data?.personal_data === 'erased';
  const seesContact = mayCall(consoleContract.claims.setStatus, role);
  return (
    <Section title="Shopper's contact">
      {detail.contact !== null ? (
        <ContactFacts contact={detail.contact} />
      ) : erased ? (
        <>
          <p className="orders-personal-data orders-personal-data-erased">Personal data: erased</p>
          <p className="muted">The shopper&apos;s name, email, phone and address were erased from the order.</p>
        </>
      ) : (
        <p className="muted">
          {!seesContact
            ? 'The contact details (email, phone and shipping address) are shown to owners and admins.'
            : order.isPending
              ? 'Loading the order…'
              : order.data === undefined
                ? 'No contact details are held for this shopper.'
                : 'The store sent no email, phone or shipping address for this shopper.'}
        </p>
      )}
    </Section>
  );
}
