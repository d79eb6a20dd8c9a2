/**
 * Audit: the chain's status (`verifyAudit`), the tenant's audit log newest first (a keyset
 * page at a time, filtered by operation), and a receipt pasted to verify, against this
 * deployment's keys or a given public key.
 */
import { useDeferredValue, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';

import { explain } from '../api/errors';
import { useFreshQuery } from '../app/refresh';
import { ErrorNote, Loading } from '../components/Notice';
import { MoreButton, usePaging } from '../components/Pages';
import { Value, When } from '../components/Value';
import { graphql } from '../gql';
import type { VerifyReceiptQuery } from '../gql/graphql';

const VerifyAudit = graphql(`
  query VerifyAudit($deep: Boolean!) {
    verifyAudit(deep: $deep) { ok rows headSeq deep problems }
  }
`);

const AuditPage = graphql(`
  query AuditPage($first: Int, $after: String, $operation: String) {
    auditEntries(first: $first, after: $after, operation: $operation) {
      pageInfo { hasNextPage endCursor }
      nodes { seq at space caller operation outcome }
    }
  }
`);

const PAGE = 50;

const VerifyReceipt = graphql(`
  query VerifyReceipt($receipt: JSON!, $publicKey: String) {
    verifyReceipt(receipt: $receipt, publicKey: $publicKey) { ok reason }
  }
`);

function Chain() {
  const [deep, setDeep] = useState(false);
  const [{ data, error, fetching }, recheck] = useQuery({ query: VerifyAudit, variables: { deep },
    requestPolicy: 'network-only' });
  const report = data?.verifyAudit;
  return (
    <div className="card">
      <h3>Chain</h3>
      <label><input type="checkbox" checked={deep} onChange={(e) => setDeep(e.target.checked)} />
        {' '}Check every row&apos;s signature too (slower)</label>{' '}
      <button type="button" onClick={() => recheck({ requestPolicy: 'network-only' })}>Check again</button>
      <ErrorNote error={error} />
      {fetching && !report ? <Loading what="the chain check" /> : null}
      {report ? (
        <p role="status" className={report.ok ? 'ok' : 'error'}>
          {report.ok ? 'Intact' : 'Broken'}: {report.rows} rows, head #{report.headSeq}
          {report.deep ? ', every signature checked' : ''}.
        </p>
      ) : null}
      {report?.problems.length ? (
        <ul>{report.problems.map((p, i) => <li key={i}><Value text={p} /></li>)}</ul>
      ) : null}
    </div>
  );
}

function LogRows({ operation, after, last, onMore }: {
  operation: string | null; after: string | null; last: boolean; onMore: (c: string) => void;
}) {
  const [{ data, error }] = useFreshQuery({ query: AuditPage,
    variables: { first: PAGE, after, operation } });
  return (
    <>
      {error ? <tr><td colSpan={6}><ErrorNote error={error} /></td></tr> : null}
      {(data?.auditEntries.nodes ?? []).map((row) => (
        <tr key={row.seq}>
          <td>{row.seq}</td><td><When at={row.at} /></td><td><Value text={row.caller} /></td>
          <td><Value text={row.operation} /></td><td><Value text={row.outcome} /></td>
          <td><Value text={row.space} /></td>
        </tr>
      ))}
      {last ? (
        <tr><td colSpan={6}><MoreButton pageInfo={data?.auditEntries.pageInfo} onMore={onMore} what="rows" /></td></tr>
      ) : null}
    </>
  );
}

function Log() {
  const [typed, setTyped] = useState('');
  const operation = useDeferredValue(typed.trim()) || null;
  const { afters, more } = usePaging(operation ?? '');
  return (
    <div className="card">
      <h3>Recent rows</h3>
      <label>Operation <input value={typed} onChange={(e) => setTyped(e.target.value)}
        placeholder="resolveConflict" /></label>
      <div className="table-wrap" tabIndex={0} role="region" aria-label="Audit rows">
        <table>
          <thead><tr><th scope="col">#</th><th scope="col">When</th><th scope="col">Caller</th>
            <th scope="col">Operation</th><th scope="col">Outcome</th><th scope="col">Space</th></tr></thead>
          <tbody>
            {afters.map((after, i) => (
              <LogRows key={after ?? ''} operation={operation} after={after}
                last={i === afters.length - 1} onMore={more} />
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Receipt() {
  const client = useClient();
  const [text, setText] = useState('');
  const [publicKey, setPublicKey] = useState('');
  const [verdict, setVerdict] = useState<VerifyReceiptQuery['verifyReceipt'] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setVerdict(null);
    let receipt: unknown;
    try {
      receipt = JSON.parse(text);
    } catch {
      setError('That is not JSON: paste the receipt exactly as graphmem returned it.');
      return;
    }
    setError(null);
    const r = await client.query(VerifyReceipt, { receipt, publicKey: publicKey.trim() || null },
      { requestPolicy: 'network-only' }).toPromise();
    if (r.error) setError(explain(r.error));
    else if (r.data) setVerdict(r.data.verifyReceipt);
  };
  return (
    <form className="card" onSubmit={submit}>
      <h3>Verify a receipt</h3>
      <label htmlFor="receipt-text">Receipt (JSON)</label>
      <textarea id="receipt-text" rows={6} value={text} onChange={(e) => setText(e.target.value)} required />
      <label htmlFor="receipt-key">Public key (PEM, optional: else this deployment&apos;s keys)</label>
      <textarea id="receipt-key" rows={3} value={publicKey} onChange={(e) => setPublicKey(e.target.value)} />
      <button type="submit">Verify</button>
      <ErrorNote error={error} />
      {verdict ? (
        <p role="status" className={verdict.ok ? 'ok' : 'error'}>
          {verdict.ok ? 'Valid' : 'Not valid'}{verdict.reason ? <>: <Value text={verdict.reason} /></> : null}
        </p>
      ) : null}
    </form>
  );
}

export function AuditView() {
  return (
    <section aria-labelledby="audit-title">
      <h2 id="audit-title">Audit</h2>
      <Chain />
      <Log />
      <Receipt />
    </section>
  );
}
