// Naming the carrier of a shipment whose number named none (admins and owners): the carriers the
// service knows, by name and in the contract's order (the most common first), from its one carrier
// table; the choice is sent as its slug.
// The server answers the shipment, which replaces the page's copy.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { CARRIERS, isCarrierSlug } from '../../../../../contract/carriers.js';
import { api, ApiError, bodyOf, errorMessage, fieldError, pathParam } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Section } from '../../components/Section';
import type { ShipmentDetail } from './labels';
import { shipmentQuery } from './queries';

interface SetCarrierSectionProps {
  trackingNumber: string;
  onSet: (detail: ShipmentDetail) => void;
}

export function SetCarrierSection({ trackingNumber, onSet }: SetCarrierSectionProps) {
  const id = useId();
  const queryClient = useQueryClient();
  // The shipment's carrier as the page read it: chosen already when it is one of the list.
  const [courier, setCourier] = useState(() => {
    const current = queryClient.getQueryData(shipmentQuery(trackingNumber).queryKey)?.shipment.courier;
    return current !== undefined && isCarrierSlug(current) ? current : '';
  });
  const [blank, setBlank] = useState(false);

  const setCarrier = useMutation({
    mutationFn: async (courierId: string) =>
      bodyOf(await api.shipments.setCarrier({ params: { tracking_number: pathParam(trackingNumber) }, body: { courier_id: courierId } }), 200),
    onSuccess: async (shipment) => {
      queryClient.setQueryData(shipmentQuery(trackingNumber).queryKey, shipment);
      onSet(shipment);
      // The order pages and the shipments list show their shipments' carriers. The list's cached
      // pages are dropped rather than marked stale: shown again, they would name the old carrier
      // until their refetch came back.
      queryClient.removeQueries({ queryKey: ['shipment-list'] });
      await queryClient.invalidateQueries({ queryKey: ['orders', 'detail'] });
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBlank(courier === '');
    if (courier === '') return;
    setCarrier.mutate(courier);
  };

  const error = setCarrier.error;
  const problem =
    error === null
      ? undefined
      : error instanceof ApiError && error.status === 409
        ? `The carrier could not be set: ${error.message} Reload the page to see the shipment as it is now.`
        : `The carrier could not be set: ${errorMessage(error)}`;
  const fieldProblem = blank ? 'Choose the carrier.' : fieldError(error, 'courier_id');
  const describedBy = [`${id}-hint`, fieldProblem === undefined ? null : `${id}-error`].filter(Boolean).join(' ');

  return (
    <Section title="Set the carrier" description="The carrier could not be told from the tracking number, so the shipment is not tracked until you name it.">
      <form onSubmit={submit} noValidate className="shipment-carrier-form">
        <div className="field">
          <label htmlFor={`${id}-carrier`}>Carrier</label>
          <p className="field-hint" id={`${id}-hint`}>
            The carrier whose label is on the parcel.
          </p>
          <select
            id={`${id}-carrier`}
            name="courier_id"
            className="text-input"
            value={courier}
            onChange={(event) => {
              setCourier(event.target.value);
              setBlank(false);
            }}
            aria-invalid={fieldProblem === undefined ? undefined : true}
            aria-describedby={describedBy}
          >
            <option value="">Choose a carrier</option>
            {CARRIERS.map((carrier) => (
              <option key={carrier.slug} value={carrier.slug}>
                {carrier.name}
              </option>
            ))}
          </select>
          {fieldProblem === undefined ? null : (
            <p className="field-error" id={`${id}-error`}>
              {fieldProblem}
            </p>
          )}
        </div>
        <ErrorMessage message={problem} />
        <button type="submit" className="button primary" disabled={setCarrier.isPending}>
          {setCarrier.isPending ? 'Setting the carrier…' : 'Set carrier'}
        </button>
      </form>
    </Section>
  );
}
