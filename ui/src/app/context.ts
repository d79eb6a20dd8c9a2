/** What every view of a signed-in session reads: the space, who the key is and what it may
 * do, and what the server offers. */
import { createContext, useContext } from 'react';

import { NONE, type Capabilities, type ServerInfo, type Viewer } from '../api/viewer';

export interface SessionInfo {
  /** The space as the API takes it (`user/agent/run`). */
  space: string;
  /** The space's full key (`tenant/user/agent/run`), as stored in the graph. */
  spaceKey: string;
  caps: Capabilities;
  viewer: Viewer | null;
  server: ServerInfo | null;
}

export const SessionContext = createContext<SessionInfo>({
  space: 'default', spaceKey: '', caps: NONE, viewer: null, server: null,
});

export function useSession(): SessionInfo {
  return useContext(SessionContext);
}
