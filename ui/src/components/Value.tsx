/**
 * A value from the store, always as text. Facts are user content: markup shows as the
 * characters it is made of, bidirectional marks stay inside their own box (<bdi>), and a
 * long value is clipped until the reader asks for all of it.
 */
import { useId, useState } from 'react';

const CLIP = 600;

export function Value({ text, label }: { text: string | null | undefined; label?: string }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const value = text ?? '';
  if (value.length <= CLIP) {
    return <bdi className="value" dir="auto">{value}</bdi>;
  }
  const size = value.length >= 10_240 ? `${Math.round(value.length / 1024)} K characters`
    : `${value.length} characters`;
  return (
    <span className="value-long">
      {open ? (
        <bdi id={id} className="value value-full" dir="auto" tabIndex={0} role="region"
          aria-label={`Full value${label ? ` of ${label}` : ''}`}>{value}</bdi>
      ) : (
        <bdi id={id} className="value" dir="auto">{value.slice(0, CLIP)}…</bdi>
      )}
      <button type="button" className="link" aria-expanded={open} aria-controls={id}
        onClick={() => setOpen(!open)}>
        {open ? 'Show less' : `Show all (${size})`}
      </button>
    </span>
  );
}

/** A time as the reader's locale shows it, with the exact ISO value on hover. */
export function When({ at }: { at: string | null | undefined }) {
  if (!at) return <span className="muted">—</span>;
  const date = new Date(at);
  const shown = Number.isNaN(date.getTime()) ? at : date.toLocaleString();
  return <time dateTime={at} title={at}>{shown}</time>;
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`status status-${status.toLowerCase()}`}>{status.replace('_', ' ')}</span>;
}
