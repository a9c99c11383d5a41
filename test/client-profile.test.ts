// The route profile's reader and the WooCommerce status rule, without a server: each case is the
// wire form a plugin sends and the value worked out by hand.
import { describe, expect, it } from 'vitest';
import { readRouteAmount, readRouteBody } from '../contract/client-profile.js';
import { OrderRequest, ShipmentRequest } from '../contract/index.js';
import { wooCommerceStatusAction } from '../server/domain/platforms/index.js';

describe('readRouteAmount', () => {
  it.each([
    ['24.990000', 24.99],
    ['107.890000', 107.89],
    ['45', 45],
    [6.269999999999996, 6.27],
    [122.99999999999999, 123],
    [6.270000000000003, 6.27],
  ])('reads %j as %j', (sent, read) => {
    expect(readRouteAmount(sent)).toBe(read);
  });

  it.each([['1.005', 1.005], [1.005, 1.005], [6.2701, 6.2701], ['abc', 'abc']])('never rounds a real third decimal: %j stays %j', (sent, read) => {
    expect(readRouteAmount(sent)).toBe(read);
  });
});

describe('readRouteBody', () => {
  it('reads an order as the contract expects it, and the contract then refuses a third decimal', () => {
    const read = readRouteBody(OrderRequest, {
      source_order_id: 1234,
      subtotal: '40.000000',
      amount_covered: 30,
      taxes: '1.005',
      insurance_selected: true,
      quote_id: null,
      customer_details: { first_name: 'Jane', last_name: 'Doe', email: 'jane@example.com', phone: null },
      shipping_details: { street_address1: ['1 Main St', 'Apt 2'], street_address2: ['1 Main St', 'Apt 2'], city: 'Miami', country_code: 'US' },
      line_items: [{ name: 'Tee', price: '20.00', quantity: '2', source_product_id: 23 }],
      source_created_on: '2026-11-20 22:03:11',
    }) as Record<string, unknown>;
    expect(read).toMatchObject({
      source_order_id: '1234',
      subtotal: 30,
      taxes: 1.005,
      shipping_details: { street_address1: '1 Main St', street_address2: 'Apt 2' },
      line_items: [{ source_id: 'line-1', price: 20, quantity: 2, source_product_id: '23' }],
      source_created_on: '2026-11-20T22:03:11Z',
    });
    expect('quote_id' in read).toBe(false);
    expect('phone' in (read.customer_details as object)).toBe(false);
    const checked = OrderRequest.safeParse(read);
    expect(checked.success).toBe(false);
    expect(checked.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['taxes']);
  });

  it('keeps amount_covered out of the subtotal when it is larger', () => {
    expect(readRouteBody(OrderRequest, { subtotal: 40, amount_covered: 50 })).toMatchObject({ subtotal: 40 });
  });

  it('keeps a null that a field takes as a value', () => {
    expect(readRouteBody(ShipmentRequest, { tracking_number: 'X1', source_order_id: 7, courier_id: null })).toEqual({
      tracking_number: 'X1',
      source_order_id: '7',
      courier_id: null,
    });
  });
});

describe('wooCommerceStatusAction', () => {
  it('books processing and completed, cancels cancelled and refunded, and leaves the rest, by default', () => {
    expect(['processing', 'completed', 'cancelled', 'refunded', 'pending', 'on-hold', 'failed'].map((status) => wooCommerceStatusAction(status, {}))).toEqual([
      'book',
      'book',
      'cancel',
      'cancel',
      'ignore',
      'ignore',
      'ignore',
    ]);
  });

  it('follows the statuses the plugin stamped on the order', () => {
    const stamped = { protectedStatuses: ['on-hold', 'processing'], cancelStatuses: ['failed'] };
    expect(wooCommerceStatusAction('on-hold', stamped)).toBe('book');
    expect(wooCommerceStatusAction('completed', stamped)).toBe('ignore');
    expect(wooCommerceStatusAction('failed', stamped)).toBe('cancel');
    expect(wooCommerceStatusAction('cancelled', stamped)).toBe('ignore');
  });
});
