// The claim's description as it was filed, line breaks kept and never read as markup, under who
// wrote it: the shopper on the claim page, or whoever filed it through the API (a key, a platform)
// or the operator. Who filed it is the first entry of the claim's history, which the console's
// claim read names with its label (the page has read it already: this reads the same cache entry).
import { useQuery } from '@tanstack/react-query';
import { Section } from '../../components/Section';
import { claimQuery, type Claim, type ClaimDetail } from './claims';

type Filer = NonNullable<ClaimDetail['history'][number]['by']>;

/** "Live API key ••••9gXL" → "the live API key ••••9gXL"; "An API key" → "an API key". */
const lowered = (label: string) => (/^(Live|Test) /.test(label) ? `the ${label.charAt(0).toLowerCase()}${label.slice(1)}` : label.replace(/^An /, 'an '));

/** Who wrote the description, as a line under the title. */
export function filedByLine(claim: Claim, by: Filer | null): string {
  switch (by?.kind) {
    case 'shopper':
      return 'Written by the shopper on the claim page.';
    case 'api_key':
      return `Sent through the API with ${lowered(by.label)}.`;
    case 'platform':
      return `Sent through the API by ${by.label.replace(/^Platform /, 'the platform ')}.`;
    case 'console_user':
      return `Written by ${by.label}.`;
    case 'operator':
      return `Written by ${by.label.replace(/^Operator /, 'the operator ')}.`;
    default:
      // Before the service recorded who filed a claim, or a filer it has no words for: where it came from.
      return claim.channel === 'shopper_page' ? 'Written by the shopper on the claim page.' : claim.channel === 'api' ? 'Sent through the API.' : 'Written by the operator.';
  }
}

export function ShopperTextSection({ claim }: { claim: Claim }) {
  // The page's own read of the claim, from the cache: never a request of its own.
  const detail = useQuery({ ...claimQuery(claim.id), enabled: false });
  const filing = detail.data?.history.find((change) => change.from_status === null);
  return (
    <Section title="Description" description={filedByLine(claim, filing?.by ?? null)}>
      {claim.description === null || claim.description.trim() === '' ? (
        <p className="muted">No description was given.</p>
      ) : (
        <blockquote className="claim-description">{claim.description}</blockquote>
      )}
    </Section>
  );
}
