// A "Copy" button for a value shown on the page (a setup link, a webhook URL), with a status line a
// screen reader announces. Without a clipboard (an insecure origin, a refused permission) it
// selects the value instead, for the user to copy with the keyboard.
import { useState } from 'react';
import './CopyButton.css';

interface CopyButtonProps {
  /** The text to copy. */
  text: string;
  /** The id of the element that shows the text: selected when the clipboard is unavailable. */
  targetId: string;
  /** Said after "Copy" to screen readers, when several copy buttons share a page (e.g. "webhook URL of shopwire"). */
  what?: string;
  className?: string;
}

function select(targetId: string): void {
  const target = document.getElementById(targetId);
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement) {
    target.focus();
    target.select();
  } else if (target !== null) {
    const range = document.createRange();
    range.selectNodeContents(target);
    const selection = window.getSelection();
    selection?.removeAllRanges();
    selection?.addRange(range);
  }
}

export function CopyButton({ text, targetId, what, className }: CopyButtonProps) {
  const [status, setStatus] = useState('');

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setStatus('Copied to the clipboard.');
    } catch {
      select(targetId);
      setStatus('Copying failed: the text is selected, copy it with your keyboard.');
    }
  };

  return (
    <span className={className === undefined ? 'copy-button' : `copy-button ${className}`}>
      <button type="button" className="button secondary small" onClick={() => void copy()}>
        Copy{what === undefined ? null : <span className="visually-hidden"> {what}</span>}
      </button>
      <span className="copy-status" role="status">
        {status}
      </span>
    </span>
  );
}
