// A paged list that could not load. A cursor the server no longer takes (edited, or from before a
// change) is not a failure to report but a link to leave: the first page is offered instead.
import type { ReactNode } from 'react';
import { ApiError, errorMessage } from '../api';
import { ErrorMessage } from './ErrorMessage';

export function ListLoadError({ error, what, firstPage }: { error: Error; what: string; firstPage: ReactNode }) {
  if (error instanceof ApiError && error.status === 400 && error.fieldErrors.some((item) => item.field === 'cursor')) {
    return (
      <div className="empty-state">
        <p>{`This page of ${what} cannot be shown: its link is not one the list made.`}</p>
        {firstPage}
      </div>
    );
  }
  return <ErrorMessage message={`The ${what} could not be loaded: ${errorMessage(error)}`} />;
}
