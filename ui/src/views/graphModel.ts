/**
 * Turns the API's related-paths results into graph elements: one node per entity key, one
 * edge per projection fact, merged as the reader expands nodes. Pure, so it is easy to test
 * and independent of the drawing library.
 */
export interface GraphNode { key: string; type: string; name: string; start: boolean; answer: boolean }
export interface GraphEdge {
  id: string; head: string; tail: string; type: string; relation: string; status: string;
  best: boolean;
}
/** How the best path read one relation phrase of the question: the relation, the words
 * that asked for it, and where the knowledge came from (declared, model, text, lexicon,
 * label, embedding; `type` when only the kind of entity matched). */
export interface Reading { relation: string; words: string; source: string; reading: string }
/** `ranked`: the paths answer a question, best first; the best one's edges are `best`.
 * `readings`, `unexplained` and `guessed` say how the best path read the question. */
export interface GraphModel {
  nodes: Map<string, GraphNode>; edges: Map<string, GraphEdge>; ranked: boolean; why: string | null;
  readings: Reading[]; unexplained: string[]; guessed: string[];
}

interface RelatedLike {
  start: { key: string; type: string; name: string }[];
  entities: { key: string; type: string; name: string }[];
  paths: {
    explain?: string | null;
    matched?: (string | null)[];
    sources?: string[];
    readings?: string[];
    edges: { factId: string; type: string; relation: string; head: string; tail: string; status: string }[];
  }[];
  ranked?: boolean;
  answers?: { key: string }[];
  unexplained?: string[];
  guessed?: string[];
}

export const empty = (): GraphModel => ({ nodes: new Map(), edges: new Map(), ranked: false,
  why: null, readings: [], unexplained: [], guessed: [] });

/** The best path's edges with the question's words each answered, in path order. */
function readingsOf(top: RelatedLike['paths'][number] | undefined): Reading[] {
  if (!top) return [];
  return top.edges.flatMap((edge, i) => {
    const words = top.matched?.[i];
    return words ? [{ relation: edge.type, words, source: top.sources?.[i] ?? '',
      reading: top.readings?.[i] ?? '' }] : [];
  });
}

export function merge(model: GraphModel, result: RelatedLike): GraphModel {
  const nodes = new Map(model.nodes);
  const edges = new Map(model.edges);
  const starts = new Set(result.start.map((e) => e.key));
  const answers = new Set((result.answers ?? []).map((e) => e.key));
  const top = result.ranked ? result.paths[0] : undefined;
  const ranked = top !== undefined;
  const best = new Set(top ? top.edges.map((e) => e.factId) : []);
  for (const e of [...result.start, ...result.entities]) {
    const known = nodes.get(e.key);
    nodes.set(e.key, { key: e.key, type: e.type, name: e.name,
      start: (known?.start ?? false) || starts.has(e.key),
      answer: (known?.answer ?? false) || answers.has(e.key) });
  }
  for (const path of result.paths) {
    for (const edge of path.edges) {
      for (const end of [edge.head, edge.tail]) {
        if (!nodes.has(end)) {
          const [type = 'unknown', ...name] = end.split(':');
          nodes.set(end, { key: end, type, name: name.join(':') || end, start: false,
            answer: answers.has(end) });
        }
      }
      const known = edges.get(edge.factId);
      edges.set(edge.factId, { id: edge.factId, head: edge.head, tail: edge.tail,
        type: edge.type, relation: edge.relation, status: edge.status,
        best: (known?.best ?? false) || best.has(edge.factId) });
    }
  }
  const first = !model.ranked && ranked;  // the question's own result, not an expansion
  return { nodes, edges, ranked: model.ranked || ranked,
    why: model.why ?? top?.explain ?? null,
    readings: first ? readingsOf(top) : model.readings,
    unexplained: first ? (result.unexplained ?? []) : model.unexplained,
    guessed: first ? (result.guessed ?? []) : model.guessed };
}

/** Colours of the Neo4j Browser style (cypher/browser/style.grass). */
export const STATUS_COLOURS: Record<string, string> = {
  ACTIVE: '#23B3D7', FLAGGED_CONFLICT: '#F36924', SUPERSEDED: '#8A8A8A', HISTORICAL: '#5DB665',
};
export const ENTITY_COLOUR = '#4C8EDA';
