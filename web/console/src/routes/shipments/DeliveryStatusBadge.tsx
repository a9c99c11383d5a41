// A delivery status as a word in a pill: the word carries the meaning, the colour only helps.
import { DELIVERY_STATUS_LABEL, type DeliveryStatus } from './labels';
import './shipments.css';

export function DeliveryStatusBadge({ status }: { status: DeliveryStatus }) {
  return <span className={`delivery-status delivery-status-${status.toLowerCase()}`}>{DELIVERY_STATUS_LABEL[status]}</span>;
}
