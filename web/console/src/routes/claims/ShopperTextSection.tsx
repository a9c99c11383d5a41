// What the shopper wrote, as sent: line breaks kept, never read as markup.
import { Section } from '../../components/Section';
import type { Claim } from './claims';

export function ShopperTextSection({ claim }: { claim: Claim }) {
  return (
    <Section title="The shopper's description">
      {claim.description === null || claim.description.trim() === '' ? (
        <p className="muted">The shopper wrote no description.</p>
      ) : (
        <blockquote className="claim-description">{claim.description}</blockquote>
      )}
    </Section>
  );
}
