// The tracking timeline, newest first: the carrier's scans and the service's notes for the merchant
// (e.g. that the carrier is unknown), merged by time.
import { Section } from '../../components/Section';
import { formatDateTime } from '../../format';
import { DeliveryStatusBadge } from './DeliveryStatusBadge';
import type { Shipment } from './labels';

type Checkpoint = Shipment['checkpoints'][number];
type MerchantMessage = Shipment['merchant_messages'][number];

/**
 * The service's notes are written for the API ("set courier_id with an update"); here, the notes a
 * person acts on in the console say where. Any other note is shown as the API writes it.
 */
const CONSOLE_WORDING: Record<string, string> = {
  carrier_unknown: 'The carrier could not be told from this tracking number, so it is not tracked. An admin or owner can set the carrier on this page.',
};
const noteText = (note: MerchantMessage) => CONSOLE_WORDING[note.code] ?? note.message;

type Entry = { kind: 'scan'; at: string; scan: Checkpoint } | { kind: 'note'; at: string; note: MerchantMessage };

/** Both lists come oldest first; reversed and merged, the newest is on top (a tie keeps the later one first). */
function timelineOf(shipment: Shipment): Entry[] {
  const entries: Entry[] = [
    ...shipment.checkpoints.map((scan): Entry => ({ kind: 'scan', at: scan.occurred_at, scan })),
    ...shipment.merchant_messages.map((note): Entry => ({ kind: 'note', at: note.created_on, note })),
  ];
  return entries.map((entry, index) => ({ entry, index, time: Date.parse(entry.at) })).sort((a, b) => b.time - a.time || b.index - a.index).map(({ entry }) => entry);
}

function placeOf(location: Checkpoint['location']): string {
  const cityState = [location.city, [location.state, location.zip].filter(Boolean).join(' ')].filter(Boolean).join(', ');
  return [cityState, location.country].filter(Boolean).join(', ');
}

export function TrackingTimelineSection({ shipment }: { shipment: Shipment }) {
  const entries = timelineOf(shipment);
  return (
    <Section title="Tracking timeline" description="Carrier scans and notes, newest first.">
      {entries.length === 0 ? (
        <p className="muted">No scans yet. They appear here as the carrier reports them.</p>
      ) : (
        <ol className="shipment-timeline">
          {entries.map((entry, index) => (
            <li key={`${entry.kind}-${entry.at}-${index}`} className={`shipment-event shipment-event-${entry.kind}`}>
              <time className="shipment-event-time" dateTime={entry.at}>
                {formatDateTime(entry.at)}
              </time>
              {entry.kind === 'scan' ? (
                <div className="shipment-event-body">
                  <p className="shipment-event-head">
                    <DeliveryStatusBadge status={entry.scan.status} />
                    <span className="shipment-event-message">{entry.scan.message}</span>
                  </p>
                  {placeOf(entry.scan.location) === '' ? null : <p className="shipment-event-place">{placeOf(entry.scan.location)}</p>}
                </div>
              ) : (
                <div className="shipment-event-body">
                  <p className="shipment-event-head">
                    <span className="shipment-note-badge">Note</span>
                    <span className="shipment-event-message">{noteText(entry.note)}</span>
                  </p>
                </div>
              )}
            </li>
          ))}
        </ol>
      )}
    </Section>
  );
}
