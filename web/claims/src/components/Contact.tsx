// How a shopper reaches the store when the page cannot take their claim: its email and its help
// page, as the store set them, or where they ordered when it set neither.
import type { Store } from '../api';

export function Contact({ store }: { store: Store }) {
  const email = store.support_email;
  const url = store.support_url;
  if (email === null && url === null) {
    return <p className="contact">{`Contact ${store.name} through the website where you placed your order.`}</p>;
  }
  return (
    <div className="contact">
      <p>{`To get help, contact ${store.name}:`}</p>
      <ul className="contact-list">
        {email === null ? null : (
          <li>
            Email <a href={`mailto:${email}`}>{email}</a>
          </li>
        )}
        {url === null ? null : (
          <li>
            <a href={url} rel="noopener noreferrer">
              {`${store.name} help page`}
            </a>
          </li>
        )}
      </ul>
    </div>
  );
}
