// Where a form or a page says what went wrong. The live region is always in the page, so a message
// put into it is announced (a region inserted together with its text often is not).
interface ErrorMessageProps {
  message: string | undefined;
}

export function ErrorMessage({ message }: ErrorMessageProps) {
  return (
    <div className={message === undefined ? 'error-message empty' : 'error-message'} role="alert" aria-atomic="true">
      {message}
    </div>
  );
}
