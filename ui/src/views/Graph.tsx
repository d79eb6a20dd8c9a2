/**
 * The entity graph: the neighbourhood of an entity, or the paths `recallRelated` finds for
 * a question, drawn with Cytoscape.js; a click (or the Expand button in the list beside it)
 * adds that entity's own neighbourhood. Edges are coloured by the status of the fact behind
 * them, and follow the time controls. The same neighbourhood opens in Neo4j Browser.
 */
import { lazy, Suspense, useMemo, useState, type FormEvent } from 'react';
import { useClient } from 'urql';

import { explain } from '../api/errors';
import { neo4jBrowserUrl, useSession } from '../app/context';
import { useTime } from '../app/time';
import { ErrorNote, Loading } from '../components/Notice';
import { Value } from '../components/Value';
import { graphql } from '../gql';
import { empty, merge, type GraphModel, type GraphNode } from './graphModel';

const Canvas = lazy(() => import('./GraphCanvas'));

const Neighbourhood = graphql(`
  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,
                      $asOf: DateTime, $validAt: DateTime) {
    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,
                  validAt: $validAt, limit: 500) {
      truncated
      start { key type name }
      entities { key type name }
      paths { edges { factId type relation head tail status } }
    }
  }
`);

const Related = graphql(`
  query RelatedPaths($space: String!, $question: String!, $hops: Int!, $asOf: DateTime,
                     $validAt: DateTime) {
    recallRelated(space: $space, question: $question, hops: $hops, asOf: $asOf,
                  validAt: $validAt, answer: false, limit: 500) {
      truncated
      matchedBy
      notes
      start { key type name }
      entities { key type name }
      paths { edges { factId type relation head tail status } }
    }
  }
`);

/** A Cypher statement for Neo4j Browser with the values bound as escaped literals. */
function browserLink(spaceKey: string, node: GraphNode, hops: number): string {
  const base = neo4jBrowserUrl();
  if (!base) return '';
  const text = [
    `WITH ${JSON.stringify(spaceKey)} AS space, ${JSON.stringify(node.name)} AS name`,
    'MATCH (start:Entity {space: space}) WHERE start.norm = toLower(trim(name))',
    `MATCH path = (start)-[edges*1..${hops}]-(:Entity)`,
    "WHERE all(edge IN edges WHERE edge.status = 'ACTIVE')",
    'RETURN path LIMIT 300',
  ].join('\n');
  return `${base}?cmd=edit&arg=${encodeURIComponent(text)}`;
}

export function GraphView() {
  const { space, spaceKey } = useSession();
  const { asOf, validAt } = useTime();
  const client = useClient();
  const [type, setType] = useState('');
  const [name, setName] = useState('');
  const [question, setQuestion] = useState('');
  const [hops, setHops] = useState(2);
  const [model, setModel] = useState<GraphModel>(empty());
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [start, setStart] = useState<GraphNode | null>(null);

  const neighbourhood = async (t: string, n: string, h: number, into: GraphModel) => {
    setBusy(true);
    setError(null);
    const r = await client.query(Neighbourhood, { space, type: t, name: n, hops: h, asOf, validAt },
      { requestPolicy: 'network-only' }).toPromise();
    setBusy(false);
    if (r.error || !r.data) { setError(r.error ? explain(r.error) : 'no answer'); return; }
    const found = r.data.neighbourhood;
    setModel(merge(into, found));
    setNote(found.truncated ? 'The result was cut at a cap (a hub, typically).' : null);
    if (found.start[0] && into.nodes.size === 0) setStart({ ...found.start[0], start: true });
  };
  const draw = (e: FormEvent) => {
    e.preventDefault();
    setStart(null);
    void neighbourhood(type.trim(), name.trim(), hops, empty());
  };
  const ask = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    setStart(null);
    const r = await client.query(Related, { space, question: question.trim(), hops, asOf, validAt },
      { requestPolicy: 'network-only' }).toPromise();
    setBusy(false);
    if (r.error || !r.data) { setError(r.error ? explain(r.error) : 'no answer'); return; }
    const found = r.data.recallRelated;
    setModel(merge(empty(), found));
    setNote([`Start entities matched by ${found.matchedBy}.`, ...found.notes,
      found.truncated ? 'The result was cut at a cap.' : ''].filter(Boolean).join(' '));
  };
  const expand = (node: GraphNode) => void neighbourhood(node.type, node.name, 1, model);
  const nodes = useMemo(() => [...model.nodes.values()], [model]);
  const edges = useMemo(() => [...model.edges.values()], [model]);
  const link = start ? browserLink(spaceKey, start, hops) : '';

  return (
    <section aria-labelledby="graph-title">
      <h2 id="graph-title">Entity graph</h2>
      <form className="filters" onSubmit={draw}>
        <label>Type <input value={type} onChange={(e) => setType(e.target.value)} required
          placeholder="service" /></label>
        <label>Name <input value={name} onChange={(e) => setName(e.target.value)} required
          placeholder="Billing" /></label>
        <label>Hops{' '}
          <select value={hops} onChange={(e) => setHops(Number(e.target.value))}>
            {[1, 2, 3, 4].map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        </label>
        <button type="submit" disabled={busy}>Draw neighbourhood</button>
      </form>
      <form className="filters" onSubmit={ask}>
        <label className="wide">Question <input value={question} required
          onChange={(e) => setQuestion(e.target.value)} placeholder="who owns what Billing calls?" /></label>
        <button type="submit" disabled={busy}>Draw related paths</button>
      </form>
      <ErrorNote error={error} />
      {note ? <p className="muted" role="status">{note}</p> : null}
      {link ? <p><a href={link} target="_blank" rel="noopener noreferrer">Open this neighbourhood in Neo4j Browser</a></p> : null}
      {busy ? <Loading what="graph" /> : null}
      {nodes.length ? (
        <div className="graph-layout">
          <Suspense fallback={<Loading what="graph drawing" />}>
            <Canvas nodes={nodes} edges={edges} onExpand={expand} />
          </Suspense>
          <div className="graph-lists">
            <h3>Entities ({nodes.length})</h3>
            <ul className="entity-list" data-testid="graph-entities">
              {nodes.map((n) => (
                <li key={n.key} data-key={n.key}>
                  <Value text={n.name} /> <span className="muted">({n.type})</span>{' '}
                  <button type="button" className="link" onClick={() => expand(n)} disabled={busy}>
                    Expand<span className="sr-only"> <Value text={n.name} /></span>
                  </button>
                </li>
              ))}
            </ul>
            <h3>Edges ({edges.length})</h3>
            <ul className="edge-list" data-testid="graph-edges">
              {edges.map((e) => (
                <li key={e.id} data-head={e.head} data-tail={e.tail} data-status={e.status}>
                  <Value text={model.nodes.get(e.head)?.name ?? e.head} /> —<Value text={e.relation || e.type} />→{' '}
                  <Value text={model.nodes.get(e.tail)?.name ?? e.tail} />{' '}
                  <span className={`status status-${e.status.toLowerCase()}`}>{e.status.replace('_', ' ')}</span>
                </li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
    </section>
  );
}
