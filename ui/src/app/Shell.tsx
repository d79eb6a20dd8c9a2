/**
 * The signed-in frame: who and where (space with its counts), the time controls, the views
 * as tabs with live counts, and the live subscription that keeps them current.
 */
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { useQuery, useSubscription } from 'urql';

import type { Capabilities } from '../api/capabilities';
import { ConflictOpenedSubscription, FactChangedSubscription, SpaceStatsQuery } from '../api/stats';
import { ErrorNote } from '../components/Notice';
import { AuditView } from '../views/Audit';
import { FactsView } from '../views/Facts';
import { GraphView } from '../views/Graph';
import { InboxView } from '../views/Inbox';
import { PendingView } from '../views/Pending';
import { TimelineView } from '../views/Timeline';
import { WriteView } from '../views/Write';
import { SessionContext } from './context';
import { recentSpaces } from './session';
import { TimeControls } from './time';

type ViewName = 'conflicts' | 'pending' | 'facts' | 'timeline' | 'graph' | 'audit' | 'write';

interface Tab {
  name: ViewName;
  label: string;
  show: boolean;
  count?: number | undefined;
}

function viewFromHash(): ViewName {
  const name = window.location.hash.replace(/^#\/?/, '').split('/')[0] ?? '';
  const known: ViewName[] = ['conflicts', 'pending', 'facts', 'timeline', 'graph', 'audit', 'write'];
  return known.includes(name as ViewName) ? (name as ViewName) : 'conflicts';
}

function Live({ space }: { space: string }) {
  const [facts] = useSubscription({ query: FactChangedSubscription, variables: { space } });
  const [conflicts] = useSubscription({ query: ConflictOpenedSubscription, variables: { space } });
  const last = facts.data?.factChanged ?? conflicts.data?.conflictOpened;
  const failed = facts.error ?? conflicts.error;
  return (
    <p className="live" role="status">
      {failed ? 'Live updates paused (reconnecting)' : 'Live'}
      {last ? <span className="muted"> · last change {new Date(last.at).toLocaleTimeString()}</span> : null}
    </p>
  );
}

function SpacePicker({ space, onSpace }: { space: string; onSpace: (s: string) => Promise<string | null> }) {
  const [value, setValue] = useState(space);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => setValue(space), [space]);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next = value.trim() || 'default';
    if (next !== space) setError(await onSpace(next));
  };
  return (
    <form className="space-picker" onSubmit={submit}>
      <label htmlFor="space-input">Space</label>
      <input id="space-input" list="recent-spaces" value={value} spellCheck={false}
        onChange={(e) => setValue(e.target.value)} />
      <datalist id="recent-spaces">
        {recentSpaces().map((s) => <option key={s} value={s} />)}
      </datalist>
      <button type="submit">Open</button>
      <ErrorNote error={error} />
    </form>
  );
}

function capabilityText(caps: Capabilities): string {
  const can = ['read', caps.write && 'write', caps.approve && 'approve', caps.audit && 'audit']
    .filter(Boolean);
  return can.join(', ');
}

export function Shell({ space, spaceKey, caps, onSignOut, onSpace }: {
  space: string;
  spaceKey: string;
  caps: Capabilities;
  onSignOut: () => void;
  onSpace: (space: string) => Promise<string | null>;
}) {
  const [view, setView] = useState<ViewName>(viewFromHash());
  const [stats] = useQuery({ query: SpaceStatsQuery, variables: { space } });
  useEffect(() => {
    const follow = () => setView(viewFromHash());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const s = stats.data?.stats;
  const tabs: Tab[] = [
    { name: 'conflicts', label: 'Conflicts', show: true,
      count: s ? s.openConflicts - s.pendingChanges : undefined },
    { name: 'pending', label: 'Pending approvals', show: true, count: s?.pendingChanges },
    { name: 'facts', label: 'Facts', show: true, count: s?.active },
    { name: 'timeline', label: 'Timeline', show: true },
    { name: 'graph', label: 'Entity graph', show: true },
    { name: 'audit', label: 'Audit', show: caps.audit },
    { name: 'write', label: 'Write', show: caps.write },
  ];
  const visible = tabs.filter((t) => t.show);
  const current = visible.some((t) => t.name === view) ? view : 'conflicts';
  const views: Record<ViewName, ReactNode> = {
    conflicts: <InboxView />, pending: <PendingView />, facts: <FactsView />,
    timeline: <TimelineView />, graph: <GraphView />, audit: <AuditView />, write: <WriteView />,
  };
  return (
    <SessionContext.Provider value={{ space, spaceKey, caps }}>
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <h1 className="brand">graphmem</h1>
        <SpacePicker space={space} onSpace={onSpace} />
        <p className="who">
          <span className="muted">This key may:</span> <strong>{capabilityText(caps)}</strong>
        </p>
        <Live space={space} />
        <button type="button" onClick={onSignOut}>Sign out</button>
      </header>
      {s ? (
        <p className="counts" aria-label="Space counts">
          <bdi>{s.space}</bdi>: {s.active} active · {s.flagged} flagged ·{' '}
          {s.openConflicts - s.pendingChanges} open conflicts · {s.pendingChanges} pending ·{' '}
          {s.recentlyRetired} recently retired
        </p>
      ) : <ErrorNote error={stats.error} />}
      <TimeControls />
      <nav aria-label="Views" className="tabs">
        {visible.map((t) => (
          <a key={t.name} href={`#${t.name}`} aria-current={t.name === current ? 'page' : undefined}
            onClick={() => setView(t.name)}>
            {t.label}
            {t.count !== undefined ? (
              <span className="badge" data-testid={`count-${t.name}`}>{t.count}</span>
            ) : null}
          </a>
        ))}
      </nav>
      <main id="main" tabIndex={-1}>{views[current]}</main>
    </SessionContext.Provider>
  );
}
