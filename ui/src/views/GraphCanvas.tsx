/**
 * The Cytoscape.js drawing of the graph model; loaded only when the graph view is used. Paths
 * ranked against a question draw the best one bold, its answer ringed, and fade the rest.
 * Small graphs get a force-directed layout; past SMALL nodes, whose cost grows with the
 * square of the node count, a radial breadth-first layout from the start entities keeps drawing
 * time linear.
 */
import cytoscape from 'cytoscape';
import { useEffect, useRef } from 'react';

import { ENTITY_COLOUR, STATUS_COLOURS, type GraphEdge, type GraphNode } from './graphModel';

const SMALL = 150;

export default function GraphCanvas({ nodes, edges, ranked, onExpand }: {
  nodes: GraphNode[]; edges: GraphEdge[]; ranked: boolean; onExpand: (node: GraphNode) => void;
}) {
  const box = useRef<HTMLDivElement | null>(null);
  const expand = useRef(onExpand);
  expand.current = onExpand;

  useEffect(() => {
    if (!box.current) return;
    const byKey = new Map(nodes.map((n) => [n.key, n]));
    const onBest = new Set(edges.filter((e) => e.best).flatMap((e) => [e.head, e.tail]));
    const cy = cytoscape({
      container: box.current,
      elements: [
        ...nodes.map((n) => ({ data: { id: n.key, label: n.name, start: n.start ? 1 : 0,
          answer: n.answer ? 1 : 0, faded: ranked && !n.start && !n.answer && !onBest.has(n.key) ? 1 : 0 } })),
        ...edges.map((e) => ({ data: { id: `f:${e.id}`, source: e.head, target: e.tail,
          label: e.relation || e.type, colour: STATUS_COLOURS[e.status] ?? '#999',
          best: e.best ? 1 : 0, faded: ranked && !e.best ? 1 : 0 } })),
      ],
      style: [
        { selector: 'node', style: { 'background-color': ENTITY_COLOUR, label: 'data(label)',
          color: '#1f2937', 'font-size': 11, 'text-valign': 'bottom', 'text-margin-y': 4,
          'text-max-width': '140px', 'text-wrap': 'ellipsis', width: 26, height: 26 } },
        { selector: 'node[start = 1]', style: { 'border-width': 4, 'border-color': '#1e3a8a' } },
        { selector: 'node[answer = 1]', style: { 'border-width': 4, 'border-color': '#15803d' } },
        { selector: 'node[faded = 1]', style: { opacity: 0.3 } },
        { selector: 'edge', style: { 'line-color': 'data(colour)', 'target-arrow-color': 'data(colour)',
          'target-arrow-shape': 'triangle', 'curve-style': 'bezier', width: 2, label: 'data(label)',
          'font-size': 9, 'text-rotation': 'autorotate', 'text-max-width': '120px',
          'text-wrap': 'ellipsis', color: '#374151' } },
        { selector: 'edge[best = 1]', style: { width: 5 } },
        { selector: 'edge[faded = 1]', style: { opacity: 0.25 } },
      ],
      layout: nodes.length <= SMALL ? { name: 'cose', animate: false }
        : { name: 'breadthfirst', circle: true, animate: false, spacingFactor: 0.9,
          roots: nodes.filter((n) => n.start).map((n) => n.key) },
      wheelSensitivity: 0.4,
      hideEdgesOnViewport: nodes.length > SMALL,
    });
    cy.on('tap', 'node', (event) => {
      const node = byKey.get(event.target.id() as string);
      if (node) expand.current(node);
    });
    return () => cy.destroy();
  }, [nodes, edges, ranked]);

  return <div ref={box} className="graph-canvas" role="img"
    aria-label={`Graph of ${nodes.length} entities and ${edges.length} edges; the lists beside it hold the same`} />;
}
