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
/** `ranked`: the paths answer a question, best first; the best one's edges are `best`. */
export interface GraphModel {
  nodes: Map<string, GraphNode>; edges: Map<string, GraphEdge>; ranked: boolean; why: string | null;
}

interface RelatedLike {
  start: { key: string; type: string; name: string }[];
  entities: { key: string; type: string; name: string }[];
  paths: {
    explain?: string | null;
    edges: { factId: string; type: string; relation: string; head: string; tail: string; status: string }[];
  }[];
  ranked?: boolean;
  answers?: { key: string }[];
}

export const empty = (): GraphModel => ({ nodes: new Map(), edges: new Map(), ranked: false, why: null });

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
  return { nodes, edges, ranked: model.ranked || ranked,
    why: model.why ?? top?.explain ?? null };
}

/** Colours of the Neo4j Browser style (cypher/browser/style.grass). */
export const STATUS_COLOURS: Record<string, string> = {
  ACTIVE: '#23B3D7', FLAGGED_CONFLICT: '#F36924', SUPERSEDED: '#8A8A8A', HISTORICAL: '#5DB665',
};
export const ENTITY_COLOUR = '#4C8EDA';
