/**
 * The entity graph: the neighbourhood of an entity (found by a part of its name or of a
 * spelling facts used, `searchEntities`), or the paths `recallRelated` finds for a
 * question, drawn with Cytoscape.js; a click (or the Expand button in the list beside it)
 * adds that entity's own neighbourhood. Edges are coloured by the status of the fact behind
 * them; the drawing is read again when either time control moves. With the managed Neo4j,
 * the same neighbourhood opens in Neo4j Browser.
 */
import { lazy, Suspense, useDeferredValue, useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { useClient, useQuery } from 'urql';

import { explain } from '../api/errors';
import { useSession } from '../app/context';
import { useTime } from '../app/time';
import { ErrorNote, Loading } from '../components/Notice';
import { Value } from '../components/Value';
import { graphql } from '../gql';
import { empty, merge, type GraphModel, type GraphNode } from './graphModel';

const Canvas = lazy(() => import('./GraphCanvas'));

const FindEntities = graphql(`
  query FindEntities($space: String!, $query: String!, $asOf: DateTime, $validAt: DateTime) {
    searchEntities(space: $space, query: $query, first: 20, asOf: $asOf, validAt: $validAt) {
      totalCount
      nodes { key type name aliases }
    }
  }
`);

const Neighbourhood = graphql(`
  query Neighbourhood($space: String!, $type: String!, $name: String!, $hops: Int!,
                      $asOf: DateTime, $validAt: DateTime) {
    neighbourhood(space: $space, type: $type, name: $name, hops: $hops, asOf: $asOf,
                  validAt: $validAt, limit: 150) {
      truncated
      start { key type name }
      entities { key type name }
      paths { edges { factId type relation head tail status } }
    }
  }
`);

const Related = graphql(`
  query RelatedPaths($space: String!, $question: String!, $asOf: DateTime,
                     $validAt: DateTime) {
    recallRelated(space: $space, question: $question, asOf: $asOf,
                  validAt: $validAt, answer: false, limit: 100) {
      truncated
      matchedBy
      notes
      ranked
      answers { key type name }
      unexplained
      guessed
      start { key type name }
      entities { key type name }
      paths { explain matched sources readings edges { factId type relation head tail status } }
    }
  }
`);

type Target = { kind: 'entity'; type: string; name: string } | { kind: 'question'; question: string };

/** A Cypher statement for Neo4j Browser with the values bound as escaped literals. */
function browserLink(base: string, spaceKey: string, name: string, hops: number): string {
  if (!base) return '';
  const text = [
    `WITH ${JSON.stringify(spaceKey)} AS space, ${JSON.stringify(name)} AS name`,
    'MATCH (start:Entity {space: space}) WHERE start.norm = toLower(trim(name))',
    `MATCH path = (start)-[edges*1..${hops}]-(:Entity)`,
    "WHERE all(edge IN edges WHERE edge.status = 'ACTIVE')",
    'RETURN path LIMIT 300',
  ].join('\n');
  return `${base}?cmd=edit&arg=${encodeURIComponent(text)}`;
}

function StartPicker({ onPick }: { onPick: (type: string, name: string) => void }) {
  const { space } = useSession();
  const { asOf, validAt } = useTime();
  const [text, setText] = useState('');
  const query = useDeferredValue(text.trim());
  const [{ data, error, fetching }] = useQuery({ query: FindEntities,
    variables: { space, query, asOf, validAt }, pause: !query });
  const found = query ? data?.searchEntities : undefined;
  return (
    <div className="start-picker">
      <label>Find an entity <input type="search" value={text} onChange={(e) => setText(e.target.value)}
        placeholder="a part of its name" /></label>
      <ErrorNote error={error} />
      {query && fetching && !data ? <Loading what="entities" /> : null}
      {found ? (
        <>
          <p className="muted" role="status">
            {found.totalCount === 0 ? 'No entity matches.'
              : `${found.totalCount} match${found.totalCount === 1 ? '' : 'es'}${found.totalCount > found.nodes.length ? ` (first ${found.nodes.length} shown)` : ''}: pick where to start.`}
          </p>
          <ul className="entity-matches" data-testid="entity-matches">
            {found.nodes.map((e) => (
              <li key={e.key}>
                <button type="button" onClick={() => onPick(e.type, e.name)}>
                  <bdi>{e.name}</bdi> ({e.type})
                </button>
                {e.aliases.length ? <span className="muted"> also written <Value text={e.aliases.join(', ')} /></span> : null}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </div>
  );
}

export function GraphView() {
  const { space, spaceKey, server } = useSession();
  const { asOf, validAt } = useTime();
  const client = useClient();
  const [question, setQuestion] = useState('');
  const [hops, setHops] = useState(2);
  const [target, setTarget] = useState<Target | null>(null);
  const [expanded, setExpanded] = useState<GraphNode[]>([]);
  const [model, setModel] = useState<GraphModel>(empty());
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const generation = useRef(0);

  useEffect(() => {
    if (!target) return;
    const mine = ++generation.current;
    setBusy(true);
    setError(null);
    const around = (type: string, name: string, h: number) => client.query(Neighbourhood,
      { space, type, name, hops: h, asOf, validAt }, { requestPolicy: 'network-only' }).toPromise();
    void (async () => {
      const more = Promise.all(expanded.map((n) => around(n.type, n.name, 1)));
      let drawn = empty();
      let notes: string[] = [];
      if (target.kind === 'entity') {
        const r = await around(target.type, target.name, hops);
        if (mine !== generation.current) return;
        if (r.error || !r.data) { setBusy(false); setError(r.error ? explain(r.error) : 'no answer'); return; }
        drawn = merge(drawn, r.data.neighbourhood);
        if (r.data.neighbourhood.start.length === 0) notes.push('No entity of that type and name at that time.');
        if (r.data.neighbourhood.truncated) notes.push('The result was cut at a cap (a hub, typically).');
      } else {
        const r = await client.query(Related, { space, question: target.question, asOf, validAt },
          { requestPolicy: 'network-only' }).toPromise();
        if (mine !== generation.current) return;
        if (r.error || !r.data) { setBusy(false); setError(r.error ? explain(r.error) : 'no answer'); return; }
        const found = r.data.recallRelated;
        drawn = merge(drawn, found);
        notes = [`Start entities matched by ${found.matchedBy}.`, ...found.notes,
          found.truncated ? 'The result was cut at a cap.' : ''].filter(Boolean);
      }
      for (const r of await more) {
        if (r.data) drawn = merge(drawn, r.data.neighbourhood);
      }
      if (mine !== generation.current) return;
      setModel(drawn);
      setNote(notes.length ? notes.join(' ') : null);
      setBusy(false);
    })();
  }, [client, space, target, hops, expanded, asOf, validAt]);

  const pick = (type: string, name: string) => { setExpanded([]); setTarget({ kind: 'entity', type, name }); };
  const ask = (e: FormEvent) => {
    e.preventDefault();
    setExpanded([]);
    setTarget({ kind: 'question', question: question.trim() });
  };
  const expand = (node: GraphNode) => setExpanded((known) => (
    known.some((k) => k.key === node.key) ? known : [...known, node]));
  const nodes = useMemo(() => [...model.nodes.values()], [model]);
  const edges = useMemo(() => [...model.edges.values()], [model]);
  const link = target?.kind === 'entity'
    ? browserLink(server?.neo4jBrowserUrl ?? '', spaceKey, target.name, hops) : '';

  return (
    <section aria-labelledby="graph-title">
      <h2 id="graph-title">Entity graph</h2>
      <div className="filters">
        <label>Hops{' '}<span className="sr-only">(of a neighbourhood)</span>
          <select value={hops} onChange={(e) => setHops(Number(e.target.value))}>
            {[1, 2, 3, 4].map((h) => <option key={h} value={h}>{h}</option>)}
          </select>
        </label>
      </div>
      <StartPicker onPick={pick} />
      <form className="filters" onSubmit={ask}>
        <label className="wide">Question <input value={question} required
          onChange={(e) => setQuestion(e.target.value)} placeholder="who owns what Billing calls?" /></label>
        <button type="submit" disabled={busy}>Draw related paths</button>
      </form>
      {target ? (
        <p role="status" className="graph-target">
          {target.kind === 'entity'
            ? <>Neighbourhood of <bdi>{target.name}</bdi> ({target.type}), {hops} hop{hops === 1 ? '' : 's'}</>
            : <>Paths for <q><Value text={target.question} /></q>, best first</>}
          {expanded.length ? `, with ${expanded.length} expanded` : ''}
          {asOf ? `, as of ${new Date(asOf).toLocaleString()}` : ''}
          {validAt ? `, true at ${new Date(validAt).toLocaleString()}` : ''}
        </p>
      ) : null}
      <ErrorNote error={error} />
      {note ? <p className="muted">{note}</p> : null}
      {link ? <p><a href={link} target="_blank" rel="noopener noreferrer">Open this neighbourhood in Neo4j Browser</a></p> : null}
      {busy ? <Loading what="graph" /> : null}
      {nodes.length ? (
        <div className="graph-layout">
          <Suspense fallback={<Loading what="graph drawing" />}>
            <Canvas nodes={nodes} edges={edges} ranked={model.ranked} onExpand={expand} />
          </Suspense>
          <div className="graph-lists">
            {model.ranked ? (
              <div data-testid="graph-answer">
                <h3>Answer</h3>
                {nodes.some((n) => n.answer) ? (
                  <p>{nodes.filter((n) => n.answer).map((n, i) => (
                    <span key={n.key}>{i ? ', ' : ''}<Value text={n.name} /> <span className="muted">({n.type})</span></span>
                  ))}</p>
                ) : (
                  <p data-testid="graph-no-answer">No answer is named: the best path does not explain the whole question.</p>
                )}
                {model.unexplained.length ? (
                  <p data-testid="graph-unexplained">Not understood: {model.unexplained.map((w, i) => (
                    <span key={w}>{i ? ', ' : ''}“<Value text={w} />”</span>))}{' '}
                    <span className="muted">(no relation in this space reads so)</span></p>
                ) : null}
                {model.guessed.length ? (
                  <p data-testid="graph-guessed">Guessed from the kind of entity alone: {model.guessed.map((w, i) => (
                    <span key={w}>{i ? ', ' : ''}“<Value text={w} />”</span>))}{' '}
                    <span className="muted">(declare the relation&apos;s words to answer)</span></p>
                ) : null}
                {model.readings.length ? (
                  <>
                    <h4>How the question was read</h4>
                    <ul data-testid="graph-readings">
                      {model.readings.map((r, i) => (
                        <li key={`${r.relation}-${i}`} data-source={r.source}>
                          “<Value text={r.words} />” → <Value text={r.relation} />{' '}
                          <span className="muted">({r.source}{r.reading && r.reading !== r.words ? <>: <Value text={r.reading} /></> : null})</span>
                        </li>
                      ))}
                    </ul>
                  </>
                ) : null}
                {model.why ? <p className="muted">Best path <Value text={model.why} /></p> : null}
              </div>
            ) : null}
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
                <li key={e.id} data-head={e.head} data-tail={e.tail} data-status={e.status}
                  data-best={e.best ? 'true' : 'false'} className={model.ranked && !e.best ? 'faded' : undefined}>
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
