// The registry of personal data: every column that holds a shopper's personal data, named once.
// has_pii reads it, the log redaction derives its keys from it, and erasure and export will walk
// it. A new column holding personal data is added here, and those follow.

export type PersonalDataKind = 'name' | 'email' | 'phone' | 'address' | 'free_text' | 'image_url' | 'object_copy';

export interface PersonalDataColumn {
  table: 'orders' | 'order_line_items' | 'claims' | 'quotes' | 'events';
  column: string;
  /** The Prisma field of the column. */
  field: string;
  kind: PersonalDataKind;
  /** The keys that carry it on the wire (request and response bodies, platform messages). */
  wireKeys: readonly string[];
}

export const PERSONAL_DATA_COLUMNS = [
  { table: 'orders', column: 'customer_first_name', field: 'customerFirstName', kind: 'name', wireKeys: ['first_name', 'customer_details', 'customer'] },
  { table: 'orders', column: 'customer_last_name', field: 'customerLastName', kind: 'name', wireKeys: ['last_name', 'customer_details', 'customer'] },
  { table: 'orders', column: 'customer_email', field: 'customerEmail', kind: 'email', wireKeys: ['email', 'customer_details', 'customer'] },
  { table: 'orders', column: 'customer_phone', field: 'customerPhone', kind: 'phone', wireKeys: ['phone', 'customer_details', 'customer'] },
  { table: 'orders', column: 'shipping_address', field: 'shippingAddress', kind: 'address', wireKeys: ['shipping_details', 'shipping_address', 'address', 'street_address1', 'street_address2'] },
  { table: 'orders', column: 'billing_address', field: 'billingAddress', kind: 'address', wireKeys: ['billing_address', 'street_address1', 'street_address2'] },
  { table: 'order_line_items', column: 'image_url', field: 'imageUrl', kind: 'image_url', wireKeys: ['image_url'] },
  // A shopper's own words about what happened: may name them or their neighbours.
  { table: 'claims', column: 'description', field: 'description', kind: 'free_text', wireKeys: ['description'] },
  // Recorded as sent, for dispute resolution: a cart line may carry anything the storefront put in it.
  { table: 'quotes', column: 'cart_items', field: 'cartItems', kind: 'free_text', wireKeys: ['cart_items'] },
  // An event's data is the order or claim as it was: names, line items and claim descriptions are
  // copied in. Kept 30 days (events.ts); never logged, so no wire key of its own.
  { table: 'events', column: 'data', field: 'data', kind: 'object_copy', wireKeys: [] },
] as const satisfies readonly PersonalDataColumn[];

type OrderPersonalDataField = Extract<(typeof PERSONAL_DATA_COLUMNS)[number], { table: 'orders' }>['field'];

/** The order columns of the registry. */
export const ORDER_PERSONAL_DATA_FIELDS = PERSONAL_DATA_COLUMNS.filter((column) => column.table === 'orders').map(
  (column) => column.field,
) as readonly OrderPersonalDataField[];

/** has_pii: whether the order still holds any of its personal-data columns. */
export function hasPersonalData(order: Record<OrderPersonalDataField, unknown>): boolean {
  return ORDER_PERSONAL_DATA_FIELDS.some((field) => order[field] !== null && order[field] !== undefined);
}

/** Every wire key that can carry personal data: what the log redaction censors. */
export const PERSONAL_DATA_WIRE_KEYS: readonly string[] = [...new Set(PERSONAL_DATA_COLUMNS.flatMap((column) => column.wireKeys))];

/** SQL: the order `o` still holds some personal-data column of the registry. */
export const HOLDS_PERSONAL_DATA = PERSONAL_DATA_COLUMNS.filter((column) => column.table === 'orders')
  .map((column) => `o.${column.column} IS NOT NULL`)
  .join(' OR ');
