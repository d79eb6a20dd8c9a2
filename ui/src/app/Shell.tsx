/**
 * The signed-in frame: who and where (the space with its counts, the tenant's spaces to
 * switch to), the time controls, the views as tabs with counts, and the live channels that
 * keep every view current.
 */
import { useEffect, useState, useSyncExternalStore, type ReactNode } from 'react';
import { useSubscription } from 'urql';

import type { LiveStatus } from '../api/client';
import {
  ConflictClosedSubscription, ConflictOpenedSubscription, FactChangedSubscription,
  PendingChangedSubscription, SpaceStatsQuery,
} from '../api/live';
import type { Capabilities, Viewer } from '../api/viewer';
import { ErrorNote } from '../components/Notice';
import { AuditView } from '../views/Audit';
import { ChangesView } from '../views/Changes';
import { FactsView } from '../views/Facts';
import { GraphView } from '../views/Graph';
import { InboxView } from '../views/Inbox';
import { PendingView } from '../views/Pending';
import { TimelineView } from '../views/Timeline';
import { WriteView } from '../views/Write';
import type { Session } from './App';
import { SessionContext } from './context';
import { useFreshQuery } from './refresh';
import { SpacePicker } from './Spaces';
import { TimeControls, useTime } from './time';

type ViewName = 'conflicts' | 'pending' | 'facts' | 'timeline' | 'changes' | 'graph' | 'audit'
  | 'write';

interface Tab {
  name: ViewName;
  label: string;
  show: boolean;
  count?: number | undefined;
}

const VIEWS: ViewName[] = ['conflicts', 'pending', 'facts', 'timeline', 'changes', 'graph', 'audit',
  'write'];

function viewFromHash(): ViewName {
  const name = window.location.hash.replace(/^#\/?/, '').split('/')[0] ?? '';
  return VIEWS.includes(name as ViewName) ? (name as ViewName) : 'conflicts';
}

const LIVE_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…',
  stopped: 'Live updates stopped' };

/** The four channels, each from the change cursor read at sign-in on. Every event refreshes
 * the reads it can change (api/cache.ts); the newest one is shown. */
function Live({ space, cursor, status }: { space: string; cursor: string; status: LiveStatus }) {
  const variables = { space, after: cursor };
  const [facts] = useSubscription({ query: FactChangedSubscription, variables });
  const [opened] = useSubscription({ query: ConflictOpenedSubscription, variables });
  const [closed] = useSubscription({ query: ConflictClosedSubscription, variables });
  const [pending] = useSubscription({ query: PendingChangedSubscription, variables });
  const state = useSyncExternalStore(status.subscribe, status.get);
  const events: ({ at: string; message: string } | undefined)[] = [facts.data?.factChanged,
    opened.data?.conflictOpened, closed.data?.conflictClosed, pending.data?.pendingChanged];
  const last = events.reduce((a, b) => (b && (!a || b.at > a.at) ? b : a), undefined);
  return (
    <p className="live" data-state={state}>
      <span role="status">{LIVE_TEXT[state]}</span>
      {last ? (
        <span className="muted" data-testid="last-change">
          {' '}· {new Date(last.at).toLocaleTimeString()}: {last.message}
        </span>
      ) : null}
    </p>
  );
}

function capabilityText(caps: Capabilities): string {
  return ['read', caps.write && 'write', caps.approve && 'approve', caps.audit && 'audit']
    .filter(Boolean).join(', ');
}

function Who({ viewer, caps }: { viewer: Viewer; caps: Capabilities }) {
  const limits = viewer.allowedSpaces ? viewer.allowedSpaces.join(', ') : 'every space';
  return (
    <p className="who">
      <span className="muted">Signed in as</span> <bdi>{viewer.name}</bdi>{' '}
      <span className="muted">({viewer.role} of <bdi>{viewer.tenant}</bdi>, {limits}).</span>{' '}
      <span className="muted">This key may:</span> <strong>{capabilityText(caps)}</strong>
    </p>
  );
}

export function Shell({ session, onSignOut, onSpace }: {
  session: Session;
  onSignOut: () => void;
  onSpace: (space: string) => Promise<string | null>;
}) {
  const { space, spaceKey, caps, viewer, server } = session;
  const { asOf, validAt } = useTime();
  const [view, setView] = useState<ViewName>(viewFromHash());
  const [stats] = useFreshQuery({ query: SpaceStatsQuery, variables: { space, asOf, validAt } });
  useEffect(() => {
    const follow = () => setView(viewFromHash());
    window.addEventListener('hashchange', follow);
    follow();  // the hash may have changed between the first render and this listener
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  const s = stats.data?.stats;
  const tabs: Tab[] = [
    { name: 'conflicts', label: 'Conflicts', show: true,
      count: s ? s.openConflicts - s.pendingChanges : undefined },
    { name: 'pending', label: 'Pending approvals', show: true, count: s?.pendingChanges },
    { name: 'facts', label: 'Facts', show: true, count: s?.active },
    { name: 'timeline', label: 'Timeline', show: true },
    { name: 'changes', label: 'Changes', show: true },
    { name: 'graph', label: 'Entity graph', show: true },
    { name: 'audit', label: 'Audit', show: caps.audit },
    { name: 'write', label: 'Write', show: caps.write },
  ];
  const visible = tabs.filter((t) => t.show);
  const current = visible.some((t) => t.name === view) ? view : 'conflicts';
  const views: Record<ViewName, ReactNode> = {
    conflicts: <InboxView />, pending: <PendingView />, facts: <FactsView />,
    timeline: <TimelineView />, changes: <ChangesView />, graph: <GraphView />,
    audit: <AuditView />, write: <WriteView />,
  };
  const when = asOf || validAt ? ' (at the time chosen below)' : '';
  return (
    <SessionContext.Provider value={{ space, spaceKey, caps, viewer, server }}>
      <a className="skip" href="#main">Skip to content</a>
      <header className="top">
        <h1 className="brand">graphmem</h1>
        <SpacePicker space={space} spaceKey={spaceKey} viewer={viewer} onSpace={onSpace} />
        <Who viewer={viewer} caps={caps} />
        <Live key={`${space}|${session.cursor}`} space={space} cursor={session.cursor}
          status={session.api.live} />
        <button type="button" onClick={onSignOut}>Sign out</button>
      </header>
      {s ? (
        <p className="counts" aria-label="Space counts">
          <bdi>{s.space}</bdi>{when}: {s.active} active · {s.flagged} flagged ·{' '}
          {s.openConflicts - s.pendingChanges} open conflicts · {s.pendingChanges} pending ·{' '}
          {s.superseded} superseded · {s.historical} historical · {s.entities} entities ·{' '}
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
