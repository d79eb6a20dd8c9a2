/**
 * GraphiQL with the explorer plugin, bundled from npm and served by graphmem itself: the
 * page loads nothing from another host. The key is asked for in a form and kept in session
 * storage (shared with the explorer); it fills the Authorization header and the WebSocket
 * connection payload, and is never put in a URL. GraphiQL keeps its tabs, documents and
 * variables (which may hold secrets) in the same session storage, never in local storage.
 */
import 'graphiql/setup-workers/vite';
import 'graphiql/style.css';
import '@graphiql/plugin-explorer/style.css';
import './ide.css';

import { StrictMode, useState, type FormEvent } from 'react';
import { createRoot } from 'react-dom/client';
import { GraphiQL } from 'graphiql';
import { explorerPlugin } from '@graphiql/plugin-explorer';
import { createGraphiQLFetcher } from '@graphiql/toolkit';

import { apiKey, bearer, setApiKey, signOut } from '../app/session';

const explorer = explorerPlugin();

/** The tabs GraphiQL opens with: graphmem's example documents, one per feature, which the
 * server writes into the page as a JSON data block (schema/documents, each validated
 * against the schema by a test, so they cannot drift from it). */
function examples(): { query: string }[] {
  const block = document.getElementById('graphmem-examples');
  try {
    const found = JSON.parse(block?.textContent ?? '[]') as unknown;
    if (!Array.isArray(found)) return [];
    return found.filter((e): e is { query: string } => typeof e?.query === 'string')
      .map((e) => ({ query: e.query }));
  } catch {
    return [];
  }
}

function endpoint(): { url: string; subscriptionUrl: string } {
  const { protocol, host } = window.location;
  const ws = protocol === 'https:' ? 'wss:' : 'ws:';
  return { url: `${protocol}//${host}/graphql`, subscriptionUrl: `${ws}//${host}/graphql` };
}

function KeyForm({ onKey }: { onKey: (key: string) => void }) {
  const [value, setValue] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) onKey(value.trim());
  };
  return (
    <main className="ide-key">
      <h1>graphmem GraphiQL</h1>
      <form onSubmit={submit}>
        <label htmlFor="ide-key-input">API key</label>
        <input id="ide-key-input" type="password" autoComplete="off" spellCheck={false}
          placeholder="gm_sk_…" value={value} onChange={(e) => setValue(e.target.value)} />
        <button type="submit">Open GraphiQL</button>
      </form>
      <p>
        The key is kept in this tab&apos;s session storage and sent as the{' '}
        <code>Authorization</code> header. Create one with{' '}
        <code>graphmem keys create --role reader --tenant acme</code>.
      </p>
    </main>
  );
}

function Ide({ token, onSignOut }: { token: string; onSignOut: () => void }) {
  const { url, subscriptionUrl } = endpoint();
  const fetcher = createGraphiQLFetcher({
    url,
    subscriptionUrl,
    headers: { Authorization: bearer(token) },
    wsConnectionParams: { authorization: bearer(token) },
  });
  return (
    <GraphiQL
      fetcher={fetcher}
      plugins={[explorer]}
      defaultTabs={examples()}
      initialHeaders={JSON.stringify({ Authorization: bearer(token) }, null, 2)}
      shouldPersistHeaders={false}
      storage={window.sessionStorage}
      defaultEditorToolsVisibility="variables"
    >
      <GraphiQL.Logo>
        graphmem{' '}
        <button type="button" className="ide-signout" onClick={onSignOut}>Forget key</button>
      </GraphiQL.Logo>
    </GraphiQL>
  );
}

function App() {
  const [token, setToken] = useState<string | null>(apiKey());
  if (!token) {
    return <KeyForm onKey={(key) => { setApiKey(key); setToken(key); }} />;
  }
  return <Ide token={token} onSignOut={() => { signOut(); setToken(null); }} />;
}

const root = document.getElementById('graphiql');
if (root) {
  createRoot(root).render(<StrictMode><App /></StrictMode>);
}
