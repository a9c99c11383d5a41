// "Send test event": a sample event of a type the endpoint receives (mode "test", test_ ids), sent to
// this endpoint only, signed and retried like any other; it heads the deliveries below.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { api, bodyOf, errorMessage, pathParam } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import { typesReceived, type EventType } from './labels';
import { refreshDeliveries, type Endpoint } from './queries';

export function TestEventSection({ endpoint }: { endpoint: Endpoint }) {
  const id = useId();
  const queryClient = useQueryClient();
  const types = typesReceived(endpoint);
  const [picked, setPicked] = useState<EventType | undefined>(types[0]);
  // An edit may have taken the type picked away: the first one left instead.
  const type = picked !== undefined && types.includes(picked) ? picked : types[0];
  const [said, setSaid] = useState('');
  const send = useMutation({
    mutationFn: async (chosen: EventType) => bodyOf(await api.developers.sendTestEvent({ params: { id: pathParam(endpoint.id) }, body: { type: chosen } }), 202),
    onSuccess: async (delivery) => {
      setSaid(`A test ${delivery.event_type} event was sent (${delivery.event_id}). It heads the first page of the deliveries below.`);
      await refreshDeliveries(queryClient, endpoint.id);
    },
  });
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setSaid('');
    if (type !== undefined) send.mutate(type);
  };

  return (
    <Section
      title="Send a test event"
      description="A sample event with made-up data (its mode is test and its ids start with test_), sent to this endpoint only and signed like every event: to try your receiver before a real change reaches it."
    >
      {endpoint.status !== 'enabled' ? (
        <p className="muted">Enable the endpoint to send it a test event.</p>
      ) : (
        <form className="dev-test-form" onSubmit={submit} noValidate>
          <div className="field">
            <label htmlFor={`${id}-type`}>Event type</label>
            <select
              id={`${id}-type`}
              className="text-input"
              value={type}
              onChange={(event) => setPicked(types.find((candidate) => candidate === event.target.value))}
            >
              {types.map((candidate) => (
                <option key={candidate} value={candidate}>
                  {candidate}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" className="button primary" disabled={send.isPending || type === undefined}>
            {send.isPending ? 'Sending…' : 'Send test event'}
          </button>
        </form>
      )}
      <p className="dev-said dev-wrap" role="status">
        {said}
      </p>
      <ErrorMessage message={send.isError ? `The test event could not be sent: ${errorMessage(send.error)}` : undefined} />
    </Section>
  );
}
