/** One fact with its provenance: value, source, confidence, times, the sentence it came from. */
import type { FactFieldsFragment } from '../gql/graphql';
import { StatusBadge, Value, When } from './Value';

export function FactDetails({ fact }: { fact: FactFieldsFragment }) {
  return (
    <div className="fact">
      <p className="fact-value"><Value text={fact.value} label={fact.subject} /></p>
      <dl className="fact-meta">
        <dt>Subject</dt><dd><Value text={fact.subject} /></dd>
        {fact.scope ? <><dt>Scope</dt><dd><Value text={fact.scope} /></dd></> : null}
        <dt>Status</dt><dd><StatusBadge status={fact.status} /></dd>
        <dt>Source</dt><dd>{fact.source ? <Value text={fact.source} /> : <span className="muted">none</span>}</dd>
        <dt>Confidence</dt><dd>{fact.confidence ?? <span className="muted">—</span>}</dd>
        <dt>Recorded</dt><dd><When at={fact.recordedAt} /></dd>
        <dt>Valid</dt><dd><When at={fact.validFrom} /> to <When at={fact.validTo} /></dd>
        {fact.retiredAt ? <><dt>Retired</dt><dd><When at={fact.retiredAt} /></dd></> : null}
        {fact.raw ? <><dt>From</dt><dd className="raw"><Value text={fact.raw} label="source sentence" /></dd></> : null}
      </dl>
    </div>
  );
}
