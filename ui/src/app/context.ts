/** What every view of a signed-in session reads: the space, and what the key may do. */
import { createContext, useContext } from 'react';

import { NONE, type Capabilities } from '../api/capabilities';

export interface SessionInfo {
  /** The space as the API takes it (`user/agent/run`). */
  space: string;
  /** The space's full key (`tenant/user/agent/run`), as stored in the graph. */
  spaceKey: string;
  caps: Capabilities;
}

export const SessionContext = createContext<SessionInfo>({ space: 'default', spaceKey: '', caps: NONE });

export function useSession(): SessionInfo {
  return useContext(SessionContext);
}

/** The managed Neo4j's Browser address, written into the page by graphmem (empty when
 * graphmem does not manage the Neo4j it uses). */
export function neo4jBrowserUrl(): string {
  const meta = document.querySelector('meta[name="graphmem:neo4j-browser"]');
  return meta?.getAttribute('content') ?? '';
}
