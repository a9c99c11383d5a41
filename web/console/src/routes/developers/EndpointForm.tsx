// The form of an endpoint, to add one or to edit one: its URL, the event types it receives (all, or
// those ticked), a description and how many deliveries it takes at once. It is checked with the contract's own schema before it is sent,
// so the page and the server say the same thing; what only the server knows (https, a private
// address) comes back as its field errors, shown beside the field.
import { useId, useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { ALL_EVENTS, EVENT_TYPES } from '../../../../../contract/merchant-events.js';
import { DEFAULT_MAX_IN_FLIGHT, MAX_IN_FLIGHT_LIMIT, WebhookEndpointRequest, WebhookEndpointUpdateRequest } from '../../../../../contract/webhook-endpoints.js';
import { Field } from '../../../../shared/Field';
import { errorMessage, fieldError, sentence } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { EVENT_TYPE_HINT, receivesAll, type EventType } from './labels';
import type { Endpoint } from './queries';

export type CreateBody = z.infer<typeof WebhookEndpointRequest>;
export type UpdateBody = z.infer<typeof WebhookEndpointUpdateRequest>;

type FieldName = 'url' | 'events' | 'description' | 'max_in_flight';
const FIELDS: readonly FieldName[] = ['url', 'events', 'description', 'max_in_flight'];
type Problems = Partial<Record<FieldName, string>>;

interface Draft {
  url: string;
  description: string;
  all: boolean;
  types: EventType[];
  maxInFlight: string;
}

const draftOf = (endpoint: Endpoint | undefined): Draft =>
  endpoint === undefined
    ? { url: '', description: '', all: false, types: [], maxInFlight: String(DEFAULT_MAX_IN_FLIGHT) }
    : {
        url: endpoint.url,
        description: endpoint.description ?? '',
        all: receivesAll(endpoint),
        types: EVENT_TYPES.filter((type) => endpoint.events.includes(type)),
        maxInFlight: String(endpoint.max_in_flight),
      };

/** The contract's messages by field: the first problem of each. */
function problemsOf(error: z.ZodError): Problems {
  const problems: Problems = {};
  for (const issue of error.issues) {
    const field = issue.path[0];
    if (typeof field === 'string' && (FIELDS as readonly string[]).includes(field)) problems[field as FieldName] ??= sentence(issue.message);
  }
  return problems;
}

type EndpointFormProps =
  | { mode: 'add'; endpoint?: undefined; onSubmit: (body: CreateBody) => void; pending: boolean; error: Error | null; onCancel: () => void }
  | { mode: 'edit'; endpoint: Endpoint; onSubmit: (body: UpdateBody) => void; pending: boolean; error: Error | null; onCancel: () => void };

export function EndpointForm(props: EndpointFormProps) {
  const { mode, endpoint, pending, error, onCancel } = props;
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(endpoint));
  const [problems, setProblems] = useState<Problems>({});
  // A field's own problem is cleared as it is changed; the server's stay until the next answer.
  const change = (field: FieldName, next: Partial<Draft>) => {
    setDraft((current) => ({ ...current, ...next }));
    setProblems((current) => ({ ...current, [field]: undefined }));
  };
  const errorOf = (field: FieldName) => problems[field] ?? fieldError(error, field);
  const serverFieldError = FIELDS.some((field) => fieldError(error, field) !== undefined);

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const events = draft.all ? [ALL_EVENTS] : EVENT_TYPES.filter((type) => draft.types.includes(type));
    const url = draft.url.trim();
    const description = draft.description.trim();
    // The number as typed; the contract's schema says what is wrong with it.
    const typed = draft.maxInFlight.trim();
    const maxInFlight = typed === '' ? undefined : /^\d+$/.test(typed) ? Number(typed) : typed;
    const checked =
      mode === 'add'
        ? WebhookEndpointRequest.safeParse({ url, events, ...(description === '' ? {} : { description }), max_in_flight: maxInFlight })
        : WebhookEndpointUpdateRequest.safeParse({ url, events, description: description === '' ? null : description, max_in_flight: maxInFlight });
    if (!checked.success) {
      const found = problemsOf(checked.error);
      setProblems(found);
      // The keyboard goes to the first field to fix.
      const first = FIELDS.find((field) => found[field] !== undefined);
      if (first !== undefined) document.getElementById(`${id}-${first}`)?.focus();
      return;
    }
    setProblems({});
    if (props.mode === 'add') props.onSubmit(checked.data as CreateBody);
    else props.onSubmit(checked.data as UpdateBody);
  };

  const eventsError = errorOf('events');
  const toggle = (type: EventType, on: boolean) =>
    change('events', { types: EVENT_TYPES.filter((candidate) => (candidate === type ? on : draft.types.includes(candidate))) });

  return (
    <form className="dev-form" onSubmit={submit} noValidate>
      <ErrorMessage message={error !== null && !serverFieldError ? `The endpoint could not be saved: ${errorMessage(error)}` : undefined} />
      <Field
        id={`${id}-url`}
        label="Endpoint URL"
        hint="Where events are sent, as a POST with a JSON body, e.g. https://shop.example.com/webhooks. It must use https."
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        value={draft.url}
        onChange={(event) => change('url', { url: event.target.value })}
        error={errorOf('url')}
      />
      <fieldset className="dev-fieldset" aria-describedby={eventsError === undefined ? undefined : `${id}-events-error`}>
        <legend>Events to send</legend>
        <label className="dev-check">
          <input
            id={`${id}-events`}
            type="radio"
            name={`${id}-scope`}
            checked={draft.all}
            onChange={() => change('events', { all: true })}
          />
          <span>All events, including types added later</span>
        </label>
        <label className="dev-check">
          <input type="radio" name={`${id}-scope`} checked={!draft.all} onChange={() => change('events', { all: false })} />
          <span>Only the types ticked below</span>
        </label>
        <ul className="dev-type-checks" aria-label="Event types">
          {EVENT_TYPES.map((type) => (
            <li key={type}>
              <label className="dev-check">
                <input
                  type="checkbox"
                  checked={draft.all || draft.types.includes(type)}
                  disabled={draft.all}
                  onChange={(event) => toggle(type, event.target.checked)}
                  aria-invalid={eventsError === undefined ? undefined : true}
                />
                <span className="dev-check-text">
                  <code>{type}</code>
                  <span className="muted dev-small">{`When ${EVENT_TYPE_HINT[type]}`}</span>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {eventsError === undefined ? null : (
          <p className="field-error" id={`${id}-events-error`}>
            {eventsError}
          </p>
        )}
      </fieldset>
      <Field
        id={`${id}-description`}
        label="Description"
        hint="Optional: a note for your team, e.g. what receives the events. Up to 500 characters."
        autoComplete="off"
        value={draft.description}
        onChange={(event) => change('description', { description: event.target.value })}
        error={errorOf('description')}
      />
      <Field
        id={`${id}-max_in_flight`}
        label="Deliveries at once"
        hint={`How many events may be on their way to this endpoint at the same time, 1 to ${MAX_IN_FLIGHT_LIMIT}. Events about one order, shipment or claim always go one at a time, oldest first. 1 sends every event in order.`}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_IN_FLIGHT_LIMIT}
        value={draft.maxInFlight}
        onChange={(event) => change('max_in_flight', { maxInFlight: event.target.value })}
        error={errorOf('max_in_flight')}
      />
      <div className="dialog-actions">
        <button type="button" className="button secondary" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="button primary" disabled={pending}>
          {mode === 'add' ? (pending ? 'Adding…' : 'Add endpoint') : pending ? 'Saving…' : 'Save changes'}
        </button>
      </div>
    </form>
  );
}
