/** Sign in with an API key: checked against the space before anything is stored. */
import { useState, type FormEvent } from 'react';

import { ErrorNote } from '../components/Notice';

export function SignIn({ busy, error, initialSpace, onSubmit }: {
  busy: boolean;
  error: string | null;
  initialSpace: string;
  onSubmit: (key: string, space: string) => void;
}) {
  const [key, setKey] = useState('');
  const [space, setSpace] = useState(initialSpace);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) onSubmit(key.trim(), space.trim() || 'default');
  };
  return (
    <main className="signin" id="main">
      <h1>graphmem memory explorer</h1>
      <form onSubmit={submit} aria-describedby="signin-help">
        <label htmlFor="signin-key">API key</label>
        <input id="signin-key" type="password" autoComplete="off" spellCheck={false}
          placeholder="gm_sk_…" value={key} onChange={(e) => setKey(e.target.value)} required />
        <label htmlFor="signin-space">Space</label>
        <input id="signin-space" type="text" spellCheck={false} value={space}
          onChange={(e) => setSpace(e.target.value)} placeholder="user/agent/run" />
        <button type="submit" disabled={busy}>{busy ? 'Signing in…' : 'Sign in'}</button>
      </form>
      <ErrorNote error={error} />
      <p id="signin-help" className="muted">
        The key stays in this tab&apos;s session storage and is sent only to this server, in a
        header. A space is <code>user/agent/run</code> inside your key&apos;s tenant (missing
        parts are <code>default</code>). Create a key with{' '}
        <code>graphmem keys create --role reader --tenant acme</code>.
      </p>
    </main>
  );
}
