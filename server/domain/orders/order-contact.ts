// The shopper's contact on an order (name, email, phone, shipping address): what a person deciding
// a claim needs to reach them. Read on its own, apart from the order's other data, so that who may
// see it is decided in one place (the console shows it to the roles that decide claims).
import type { z } from 'zod';
import type { ConsoleOrderContact } from '../../../contract/console/orders.js';
import type { Database } from '../../db/client.js';
import type { Scope } from '../access/index.js';

export type ContactAddress = NonNullable<z.input<typeof ConsoleOrderContact>['shipping_address']>;

export interface OrderContact {
  name: string | null;
  email: string | null;
  phone: string | null;
  shippingAddress: ContactAddress | null;
}

/** The shopper's name as people read it: first and last, whichever were given; null for none. */
export function customerName(first: string | null, last: string | null): string | null {
  const name = [first, last].filter((part): part is string => part !== null && part.trim() !== '').join(' ');
  return name === '' ? null : name;
}

const textOrNull = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : null);

/** A stored address as the contact shows it; null for an erased or unreadable one. */
function contactAddress(stored: unknown): ContactAddress | null {
  if (stored === null || typeof stored !== 'object' || Array.isArray(stored)) return null;
  const fields = stored as Record<string, unknown>;
  const street = textOrNull(fields.street_address1);
  const city = textOrNull(fields.city);
  const country = textOrNull(fields.country_code);
  if (street === null || city === null || country === null) return null;
  return {
    street_address1: street,
    street_address2: textOrNull(fields.street_address2),
    city,
    province: textOrNull(fields.province),
    zip: textOrNull(fields.zip),
    country_code: country,
  };
}

/** The contact of one of the store's orders, or null when the order holds none (erased). */
export async function orderContact(db: Database, scope: Scope, sourceOrderId: string): Promise<OrderContact | null> {
  const order = await db.order.findUnique({
    where: { storeId_sourceOrderId: { storeId: scope.store.id, sourceOrderId } },
    select: { customerFirstName: true, customerLastName: true, customerEmail: true, customerPhone: true, shippingAddress: true },
  });
  if (order === null) return null;
  const contact: OrderContact = {
    name: customerName(order.customerFirstName, order.customerLastName),
    email: textOrNull(order.customerEmail),
    phone: textOrNull(order.customerPhone),
    shippingAddress: contactAddress(order.shippingAddress),
  };
  return Object.values(contact).every((value) => value === null) ? null : contact;
}
