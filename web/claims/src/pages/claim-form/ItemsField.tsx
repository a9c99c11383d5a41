// Which of the parcel's items the claim is about: none ticked is the whole parcel. A line of more
// than one asks how many once it is ticked, and an error about a line is said beside it.
import type { Dispatch, SetStateAction } from 'react';
import type { Shipment } from '../../api';
import { describedBy, type FormIds } from './field-ids';

interface ItemsFieldProps {
  ids: FormIds;
  items: Shipment['items'];
  /** Ticked items by their place in the parcel's list, with the quantity as typed. */
  picked: Record<number, string>;
  setPicked: Dispatch<SetStateAction<Record<number, string>>>;
  /** What is wrong with the items as a whole, if anything. */
  error: string | undefined;
  /** What is said about a part of the form ("item:2"), if anything. */
  messageFor: (target: string) => string | undefined;
  /** The shopper changed these parts of the form. */
  resolve: (...targets: string[]) => void;
}

export function ItemsField({ ids, items, picked, setPicked, error: itemsError, messageFor, resolve }: ItemsFieldProps) {
  return (
    <fieldset className="card choices" aria-describedby={ids.itemsHint}>
      <legend>Which items are affected?</legend>
      <p className="field-hint" id={ids.itemsHint}>
        Leave them all unticked if it is about the whole parcel.
      </p>
      {itemsError === undefined ? null : (
        <p className="field-error" id={ids.itemsError}>
          {itemsError}
        </p>
      )}
      {items.map((line, index) => {
        const ticked = picked[index] !== undefined;
        const error = messageFor(`item:${index}`);
        return (
          <div key={`${line.source_id}-${index}`} className="choice item-choice">
            <input
              type="checkbox"
              id={ids.item(index)}
              checked={ticked}
              onChange={(event) => {
                const checked = event.target.checked;
                resolve('items', `item:${index}`);
                setPicked((current) => {
                  const next = { ...current };
                  if (checked) next[index] = String(line.quantity);
                  else delete next[index];
                  return next;
                });
              }}
              aria-invalid={error !== undefined && !(ticked && line.quantity > 1) ? true : undefined}
              aria-describedby={describedBy(error !== undefined && !(ticked && line.quantity > 1) && ids.itemError(index))}
            />
            <label htmlFor={ids.item(index)}>
              {line.name}
              {line.quantity > 1 ? <span className="muted">{` × ${line.quantity}`}</span> : null}
            </label>
            {ticked && line.quantity > 1 ? (
              <div className="quantity">
                <label htmlFor={ids.quantity(index)}>
                  How many<span className="visually-hidden">{` ${line.name}`}</span>?
                </label>
                <input
                  id={ids.quantity(index)}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={line.quantity}
                  step={1}
                  value={picked[index]}
                  onChange={(event) => {
                    setPicked((current) => ({ ...current, [index]: event.target.value }));
                    resolve(`item:${index}`);
                  }}
                  aria-invalid={error === undefined ? undefined : true}
                  aria-describedby={describedBy(ids.quantityHint(index), error !== undefined && ids.itemError(index))}
                />
                <span className="muted" id={ids.quantityHint(index)}>{`of ${line.quantity}`}</span>
              </div>
            ) : null}
            {error === undefined ? null : (
              <p className="field-error" id={ids.itemError(index)}>
                {error}
              </p>
            )}
          </div>
        );
      })}
    </fieldset>
  );
}
