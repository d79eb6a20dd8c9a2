/**
 * The explorer's top level: sign in (who the key is, what the server offers, the space's
 * change cursor, all in one read), then the shell with its views. A reload in the same tab
 * signs in again from session storage.
 */
import { useCallback, useEffect, useState } from 'react';
import { Provider } from 'urql';

import { createApiClient, type ApiClient } from '../api/client';
import { explain } from '../api/errors';
import {
  capabilitiesOf, OpenSession, SwitchSpace, type Capabilities, type ServerInfo, type Viewer,
} from '../api/viewer';
import { RefreshProvider } from './refresh';
import { Shell } from './Shell';
import { SignIn } from './SignIn';
import { apiKey, currentSpace, setApiKey, setCurrentSpace, signOut } from './session';
import { TimeProvider } from './time';

export interface Session {
  api: ApiClient;
  viewer: Viewer;
  server: ServerInfo;
  caps: Capabilities;
  space: string;
  spaceKey: string;
  /** Where the space's change log stood before any view read: live events start after it. */
  cursor: string;
}

async function open(key: string, space: string): Promise<Session> {
  const api = createApiClient(key);
  const { data, error } = await api.client
    .query(OpenSession, { space }, { requestPolicy: 'network-only' }).toPromise();
  if (error || !data) {
    api.close();
    throw new Error(error ? explain(error) : 'graphmem returned nothing');
  }
  return { api, viewer: data.viewer, server: data.serverInfo, caps: capabilitiesOf(data.viewer),
    space, spaceKey: data.stats.space, cursor: data.changeCursor };
}

export function App() {
  const [session, setSession] = useState<Session | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const signIn = useCallback(async (key: string, space: string) => {
    setBusy(true);
    setError(null);
    try {
      const opened = await open(key, space);
      setApiKey(key);
      setCurrentSpace(space);
      setSession(opened);
    } catch (e) {
      signOut();
      setError(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }, []);

  useEffect(() => {
    const stored = apiKey();
    if (stored) void signIn(stored, currentSpace());
  }, [signIn]);

  const api = session?.api;
  useEffect(() => () => api?.close(), [api]);

  if (!session) {
    return <SignIn busy={busy} error={error} initialSpace={currentSpace()} onSubmit={signIn} />;
  }
  const leave = () => { signOut(); setSession(null); };
  const switchSpace = async (space: string) => {
    const { data, error: failed } = await session.api.client
      .query(SwitchSpace, { space }, { requestPolicy: 'network-only' }).toPromise();
    if (failed || !data) return failed ? explain(failed) : 'graphmem returned nothing';
    setCurrentSpace(space);
    setSession({ ...session, space, spaceKey: data.stats.space, cursor: data.changeCursor });
    return null;
  };
  return (
    <Provider value={session.api.client}>
      <TimeProvider>
        <RefreshProvider>
          <Shell session={session} onSignOut={leave} onSpace={switchSpace} />
        </RefreshProvider>
      </TimeProvider>
    </Provider>
  );
}
