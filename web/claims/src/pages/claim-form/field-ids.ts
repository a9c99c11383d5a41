// The claim form's element ids, all grown from one useId so two forms never share one, and the
// aria-describedby list a field builds from the hints and errors it has at the moment.
import type { ClaimReason } from '../../words';

export const formIds = (id: string) => ({
  reason: (value: ClaimReason) => `${id}-reason-${value}`,
  why: (value: ClaimReason) => `${id}-reason-${value}-why`,
  reasonError: `${id}-reason-error`,
  item: (index: number) => `${id}-item-${index}`,
  quantity: (index: number) => `${id}-item-${index}-quantity`,
  quantityHint: (index: number) => `${id}-item-${index}-hint`,
  itemError: (index: number) => `${id}-item-${index}-error`,
  itemsHint: `${id}-items-hint`,
  itemsError: `${id}-items-error`,
  photos: `${id}-photos`,
  photosHint: `${id}-photos-hint`,
  photosError: `${id}-photos-error`,
  description: `${id}-description`,
  descriptionHint: `${id}-description-hint`,
  descriptionError: `${id}-description-error`,
  summaryTitle: `${id}-summary-title`,
});

export type FormIds = ReturnType<typeof formIds>;

export const describedBy = (...parts: Array<string | false | undefined>) => parts.filter(Boolean).join(' ') || undefined;
