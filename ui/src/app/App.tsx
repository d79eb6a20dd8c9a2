/**
 * The explorer's top level: sign in (the key checked against the space, then what it may
 * do), then the shell with its views. A reload in the same tab signs in again from session
 * storage.
 */
import { useCallback, useEffect, useState } from 'react';
import { Provider } from 'urql';

import { probe, type Capabilities } from '../api/capabilities';
import { createApiClient, type ApiClient } from '../api/client';
import { explain } from '../api/errors';
import { SpaceStatsQuery } from '../api/stats';
import { Shell } from './Shell';
import { SignIn } from './SignIn';
import { apiKey, currentSpace, setApiKey, setCurrentSpace, signOut } from './session';
import { TimeProvider } from './time';

interface Session {
  api: ApiClient;
  space: string;
  spaceKey: string;
  caps: Capabilities;
}

async function open(key: string, space: string): Promise<Session> {
  const api = createApiClient(key);
  const { data, error } = await api.client
    .query(SpaceStatsQuery, { space }, { requestPolicy: 'network-only' }).toPromise();
  if (error || !data) {
    api.close();
    throw new Error(error ? explain(error) : 'graphmem returned nothing');
  }
  const caps = await probe(api.client);
  return { api, space, spaceKey: data.stats.space, caps };
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
      .query(SpaceStatsQuery, { space }, { requestPolicy: 'network-only' }).toPromise();
    if (failed || !data) return failed ? explain(failed) : 'graphmem returned nothing';
    setCurrentSpace(space);
    setSession({ ...session, space, spaceKey: data.stats.space });
    return null;
  };
  return (
    <Provider value={session.api.client}>
      <TimeProvider>
        <Shell space={session.space} spaceKey={session.spaceKey} caps={session.caps}
          onSignOut={leave} onSpace={switchSpace} />
      </TimeProvider>
    </Provider>
  );
}
