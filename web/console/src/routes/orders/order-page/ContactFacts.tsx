// The shopper's contact as labelled values: name, email and phone as links a person can use, and
// the shipping address as a postal address. Shown on the order page and on the claim page, to the
// roles that decide claims (the server sends it to no one else).
import type { ReactNode } from 'react';
import { Facts } from '../../../components/Section';
import type { OrderContact } from '../labels';

const notGiven = <span className="muted">Not given</span>;

/** A phone number as a tel: link takes it: digits and a leading "+". */
const telOf = (phone: string) => `tel:${phone.replace(/[^\d+]/g, '')}`;

function Address({ address }: { address: NonNullable<OrderContact['shipping_address']> }) {
  const cityLine = [address.city, [address.province, address.zip].filter((part) => part !== null).join(' ')].filter((part) => part !== '').join(', ');
  return (
    <address className="orders-address">
      <span>{address.street_address1}</span>
      {address.street_address2 === null ? null : <span>{address.street_address2}</span>}
      <span>{cityLine}</span>
      <span>{address.country_code}</span>
    </address>
  );
}

/** The contact's facts; `extra` follows them (the order page's "Personal data"). */
export function ContactFacts({ contact, extra = [] }: { contact: OrderContact; extra?: ReadonlyArray<readonly [string, ReactNode]> }) {
  return (
    <Facts
      items={[
        ['Name', contact.name ?? notGiven],
        ['Email', contact.email === null ? notGiven : <a href={`mailto:${contact.email}`}>{contact.email}</a>],
        ['Phone', contact.phone === null ? notGiven : <a href={telOf(contact.phone)}>{contact.phone}</a>],
        ['Shipping address', contact.shipping_address === null ? notGiven : <Address address={contact.shipping_address} />],
        ...extra,
      ]}
    />
  );
}
