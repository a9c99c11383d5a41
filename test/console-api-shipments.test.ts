// The console's shipments list through real HTTP on PostgreSQL (docs/console.md): newest first, a
// page at a time; by delivery status, by carrier, by an unknown carrier and by days without a scan,
// alone and together; the count of every filter; another store's user sees none of it; a bad query
// is a 400 naming each bad field. The shipments were registered ten days ago (the clock moved back),
// their scans played by the sandbox provider.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSOLE_PAGE_LIMIT } from '../contract/console/index.js';
import { pollShipment } from '../server/domain/shipments/index.js';
import { consoleCall, loggedIn, rival, service, shop, startConsoleApiService, stopConsoleApiService, type Browser } from './support/console-api.js';
import { call, orderBody } from './support/http.js';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;
/** Shipments with a carrier and no scan yet, registered oldest: enough for a second page of the Active ones. */
const FILLERS = 24;
const MYSTERY = 'SBXMYSTERY01';

interface Row {
  tracking_number: string;
  courier: string;
  courier_name: string;
  delivery_status: string;
  source_order_id: string;
  order_number: string;
  created_on: string;
  last_scan_at: string | null;
  days_without_scan: number | null;
}

let orderId: string;
let orderNumber: string;
/** Every tracking number, newest first. */
let newestFirst: string[];
let viewer: Browser;

beforeAll(async () => {
  await startConsoleApiService();
  const api = (method: string, path: string, body?: unknown) => call(service.baseUrl, method, path, { key: shop.liveKey, ...(body === undefined ? {} : { body }) });
  // Ten days ago: the shipments are registered then, and scanned over the two days after.
  service.clock.advance(-10 * DAY_MS);
  const body = orderBody({ source_created_on: service.clock.now().toISOString() });
  const order = await api('POST', '/v2/orders', body);
  expect(order.status).toBe(201);
  orderId = body.source_order_id as string;
  orderNumber = order.body.order_number as string;

  const registered: string[] = [];
  const ship = async (trackingNumber: string, courierId?: string): Promise<{ id: string; createdOn: Date }> => {
    const created = await api('POST', '/v1/shipments', { tracking_number: trackingNumber, source_order_id: orderId, ...(courierId === undefined ? {} : { courier_id: courierId }) });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    registered.push(trackingNumber);
    return { id: created.body.id as string, createdOn: new Date(created.body.created_on as string) };
  };
  const poll = (id: string, at: Date) => pollShipment(service.db, service.provider, service.jobs.scheduler, { shipmentId: id }, at, new Date(at.getTime() + HOUR_MS));

  for (let index = 0; index < FILLERS; index += 1) await ship(`SBXFILL${String(index).padStart(3, '0')}`, 'dhl');
  const delivered = await ship('SBXDELIVERED', 'ups');
  await poll(delivered.id, new Date(delivered.createdOn.getTime() + 51 * HOUR_MS));
  const exception = await ship('SBXEXCEPTION', 'fedex');
  await poll(exception.id, new Date(exception.createdOn.getTime() + 51 * HOUR_MS));
  // Polled a day and three hours after registration: its last scan is the one at 26 hours.
  const inTransit = await ship('SBXINTRANSIT', 'usps');
  await poll(inTransit.id, new Date(inTransit.createdOn.getTime() + 27 * HOUR_MS));
  await ship(MYSTERY);
  await ship('SBXOUTFORDELIVERY', 'ups');
  expect((await api('POST', '/v1/shipments/SBXOUTFORDELIVERY/cancel')).status).toBe(200);
  service.clock.advance(10 * DAY_MS);

  newestFirst = [...registered].reverse();
  viewer = (await loggedIn(shop, 'viewer')).browser;
}, 60_000);
afterAll(stopConsoleApiService);

async function list(query = '', browser = viewer): Promise<{ rows: Row[]; next: string | null; counts: Record<string, unknown> }> {
  const answer = await consoleCall(browser, 'GET', `/console/api/shipments${query === '' ? '' : `?${query}`}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return { rows: answer.body.data as Row[], next: answer.body.next_cursor as string | null, counts: answer.body.counts as Record<string, unknown> };
}

/** Every page of a filter, following next_cursor: the tracking numbers in order. */
async function allPages(query: string): Promise<string[]> {
  const numbers: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await list([query, cursor === null ? '' : `cursor=${cursor}`].filter((part) => part !== '').join('&'));
    expect(page.rows.length).toBeLessThanOrEqual(CONSOLE_PAGE_LIMIT);
    numbers.push(...page.rows.map((row) => row.tracking_number));
    cursor = page.next;
  } while (cursor !== null);
  return numbers;
}

const fillers = () => newestFirst.filter((number) => number.startsWith('SBXFILL'));

describe('the shipments list', () => {
  it('lists every shipment newest first, a page at a time, with its order, last scan and days without one', async () => {
    const first = await list();
    expect(first.rows.map((row) => row.tracking_number)).toEqual(newestFirst.slice(0, CONSOLE_PAGE_LIMIT));
    expect(first.next).not.toBeNull();
    const second = await list(`cursor=${first.next as string}`);
    expect(second.rows.map((row) => row.tracking_number)).toEqual(newestFirst.slice(CONSOLE_PAGE_LIMIT));
    expect(second.next).toBeNull();

    const byNumber = new Map([...first.rows, ...second.rows].map((row) => [row.tracking_number, row]));
    // Each script's scans are hours after its own registration.
    const at = (number: string, hours: number) => new Date(new Date(byNumber.get(number)?.created_on as string).getTime() + hours * HOUR_MS).toISOString();
    const order = { source_order_id: orderId, order_number: orderNumber };
    // Ten days after registration: 8.9 days after the scan at 26 hours, 7.9 after the one at 50.
    expect(byNumber.get('SBXINTRANSIT')).toMatchObject({ ...order, courier: 'usps', courier_name: 'USPS', delivery_status: 'Active', last_scan_at: at('SBXINTRANSIT', 26), days_without_scan: 8 });
    expect(byNumber.get('SBXEXCEPTION')).toMatchObject({ courier_name: 'FedEx', delivery_status: 'Exception', last_scan_at: at('SBXEXCEPTION', 50), days_without_scan: 7 });
    // Delivered or cancelled: no scan is expected any more.
    expect(byNumber.get('SBXDELIVERED')).toMatchObject({ courier_name: 'UPS', delivery_status: 'Delivered', last_scan_at: at('SBXDELIVERED', 50), days_without_scan: null });
    expect(byNumber.get('SBXOUTFORDELIVERY')).toMatchObject({ delivery_status: 'Cancelled', days_without_scan: null });
    // No scan yet: counted from registration.
    expect(byNumber.get(MYSTERY)).toMatchObject({ courier: 'unknown', courier_name: 'Unknown carrier', delivery_status: 'Active', last_scan_at: null, days_without_scan: 10 });
  });

  it('counts every filter over the whole store, whatever the filter shown', async () => {
    const expected = {
      all: FILLERS + 5,
      by_status: { Active: FILLERS + 2, Delivered: 1, Exception: 1, Cancelled: 1 },
      by_carrier: [
        { courier: 'dhl', courier_name: 'DHL', count: FILLERS },
        { courier: 'ups', courier_name: 'UPS', count: 2 },
        { courier: 'fedex', courier_name: 'FedEx', count: 1 },
        { courier: 'unknown', courier_name: 'Unknown carrier', count: 1 },
        { courier: 'usps', courier_name: 'USPS', count: 1 },
      ],
      carrier_unknown: 1,
      // On their way with no scan for 7 days: the fillers, the exception, the one in transit, the mystery.
      silent: FILLERS + 3,
      silent_days: 7,
    };
    expect((await list()).counts).toEqual(expected);
    expect((await list('status=Delivered&carrier=ups')).counts).toEqual(expected);
    expect((await list('silent_days=8')).counts).toEqual({ ...expected, silent: FILLERS + 2, silent_days: 8 });
    expect((await list('silent_days=9')).counts).toEqual({ ...expected, silent: FILLERS + 1, silent_days: 9 });
  });

  it('filters by status, carrier, an unknown carrier and days without a scan, alone, together and paged', async () => {
    expect(await allPages('status=Exception')).toEqual(['SBXEXCEPTION']);
    expect(await allPages('status=Cancelled')).toEqual(['SBXOUTFORDELIVERY']);
    // Two pages of one filter.
    expect(await allPages('status=Active')).toEqual(newestFirst.filter((number) => number === MYSTERY || number === 'SBXINTRANSIT' || number.startsWith('SBXFILL')));
    expect(await allPages('carrier=ups')).toEqual(['SBXOUTFORDELIVERY', 'SBXDELIVERED']);
    expect(await allPages('carrier=dhl')).toEqual(fillers());
    expect(await allPages('carrier_unknown=true')).toEqual([MYSTERY]);
    expect(await allPages('carrier_unknown=false')).toEqual(newestFirst.filter((number) => number !== MYSTERY));
    expect(await allPages('silent_days=8')).toEqual(newestFirst.filter((number) => number === MYSTERY || number === 'SBXINTRANSIT' || number.startsWith('SBXFILL')));
    expect(await allPages('silent_days=9')).toEqual(newestFirst.filter((number) => number === MYSTERY || number.startsWith('SBXFILL')));
    expect(await allPages('silent_days=11')).toEqual([]);
    expect(await allPages('status=Active&carrier=usps')).toEqual(['SBXINTRANSIT']);
    expect(await allPages('status=Active&carrier_unknown=true&silent_days=10')).toEqual([MYSTERY]);
    expect(await allPages('carrier=ontrac')).toEqual([]);
  });

  it("shows another store's user none of them, even with this store's cursor", async () => {
    const { browser } = await loggedIn(rival, 'viewer');
    const empty = await list('', browser);
    expect(empty.rows).toEqual([]);
    expect(empty.next).toBeNull();
    expect(empty.counts).toEqual({ all: 0, by_status: { Active: 0, Delivered: 0, Exception: 0, Cancelled: 0 }, by_carrier: [], carrier_unknown: 0, silent: 0, silent_days: 7 });
    const cursor = (await list()).next as string;
    expect((await list(`cursor=${cursor}`, browser)).rows).toEqual([]);
    expect((await list('carrier=dhl', browser)).rows).toEqual([]);
  });

  it('refuses a bad query with a 400 naming each bad field, and anyone without a session', async () => {
    const bad = await consoleCall(viewer, 'GET', '/console/api/shipments?status=Lost&carrier=UPS!&silent_days=0&carrier_unknown=yes');
    expect(bad.status).toBe(400);
    const fields = (bad.body.errors as Array<{ field: string; message: string }>).map((error) => error.field).sort();
    expect(fields).toEqual(['carrier', 'carrier_unknown', 'silent_days', 'status']);
    expect(bad.body.errors).toContainEqual({ field: 'status', message: 'must be one of Active, Delivered, Exception, Cancelled' });
    for (const days of ['366', '1.5', '-1', '007']) {
      const answer = await consoleCall(viewer, 'GET', `/console/api/shipments?silent_days=${days}`);
      expect([answer.status, (answer.body.errors as Array<{ field: string }>).map((error) => error.field)]).toEqual([400, ['silent_days']]);
    }
    const junk = await consoleCall(viewer, 'GET', '/console/api/shipments?cursor=not-a-cursor');
    expect([junk.status, junk.body.errors]).toEqual([400, [{ field: 'cursor', message: 'must be a next_cursor of an earlier page' }]]);
    expect((await consoleCall({ cookie: undefined, csrf: undefined }, 'GET', '/console/api/shipments')).status).toBe(401);
  });
});
