// Where a form or a page says what went wrong. The live region is always in the page, so a message
// put into it is announced (a region inserted together with its text often is not).
interface ErrorMessageProps {
  message: string | undefined;
  id?: string;
}

export function ErrorMessage({ message, id }: ErrorMessageProps) {
  return (
    <div id={id} className={message === undefined ? 'error-message empty' : 'error-message'} role="alert" aria-atomic="true">
      {message}
    </div>
  );
}

/** A polite live region for news that is not an error (the session ended, a photo is ready). */
export function StatusMessage({ message, className = 'notice' }: { message: string | undefined; className?: string }) {
  return (
    <div className={message === undefined ? `${className} empty` : className} role="status" aria-atomic="true">
      {message}
    </div>
  );
}
