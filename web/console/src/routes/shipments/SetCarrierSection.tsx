// Naming the carrier of a shipment whose number named none (admins and owners): the server takes a
// carrier slug or a known alias, refuses any other name with a field error, and answers the
// shipment, which replaces the page's copy.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { api, ApiError, bodyOf, errorMessage, fieldError, pathParam } from '../../api';
import { ErrorMessage } from '../../components/ErrorMessage';
import { Field } from '../../../../shared/Field';
import { Section } from '../../components/Section';
import type { ShipmentDetail } from './labels';
import { shipmentQuery } from './queries';

interface SetCarrierSectionProps {
  trackingNumber: string;
  onSet: (detail: ShipmentDetail) => void;
}

export function SetCarrierSection({ trackingNumber, onSet }: SetCarrierSectionProps) {
  const queryClient = useQueryClient();
  const [courier, setCourier] = useState('');
  const [blank, setBlank] = useState(false);

  const setCarrier = useMutation({
    mutationFn: async (courierId: string) =>
      bodyOf(await api.shipments.setCarrier({ params: { tracking_number: pathParam(trackingNumber) }, body: { courier_id: courierId } }), 200),
    onSuccess: async (shipment) => {
      queryClient.setQueryData(shipmentQuery(trackingNumber).queryKey, shipment);
      onSet(shipment);
      // The order pages and the shipments list show their shipments' carriers.
      await Promise.all([queryClient.invalidateQueries({ queryKey: ['orders', 'detail'] }), queryClient.invalidateQueries({ queryKey: ['shipment-list'] })]);
    },
  });

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const wanted = courier.trim();
    setBlank(wanted === '');
    if (wanted === '') return;
    setCarrier.mutate(wanted);
  };

  const error = setCarrier.error;
  const problem =
    error === null
      ? undefined
      : error instanceof ApiError && error.status === 409
        ? `The carrier could not be set: ${error.message} Reload the page to see the shipment as it is now.`
        : `The carrier could not be set: ${errorMessage(error)}`;

  return (
    <Section title="Set the carrier" description="The carrier could not be told from the tracking number, so the shipment is not tracked until you name it.">
      <form onSubmit={submit} noValidate className="shipment-carrier-form">
        <Field
          label="Carrier"
          hint="A carrier slug or name, for example ups, usps, fedex or dhl."
          name="courier_id"
          value={courier}
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="none"
          maxLength={100}
          onChange={(event) => setCourier(event.target.value)}
          error={blank ? 'Enter the carrier.' : fieldError(error, 'courier_id')}
        />
        <ErrorMessage message={problem} />
        <button type="submit" className="button primary" disabled={setCarrier.isPending}>
          {setCarrier.isPending ? 'Setting the carrier…' : 'Set carrier'}
        </button>
      </form>
    </Section>
  );
}
