/**
 * The API key lives in this tab's session storage only: never in a URL, never in local
 * storage, gone when the tab closes. The explorer (/ui/) and the IDE (/graphql) share it
 * because they share the origin.
 */

const KEY = 'graphmem.apiKey';
const SPACE = 'graphmem.space';
const RECENT = 'graphmem.recentSpaces';

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null;
  }
}

export function apiKey(): string | null {
  return storage()?.getItem(KEY) ?? null;
}

export function setApiKey(key: string): void {
  storage()?.setItem(KEY, key.trim());
}

export function signOut(): void {
  storage()?.removeItem(KEY);
}

export function currentSpace(): string {
  return storage()?.getItem(SPACE) ?? 'default';
}

export function recentSpaces(): string[] {
  try {
    const raw = JSON.parse(storage()?.getItem(RECENT) ?? '[]') as unknown;
    return Array.isArray(raw) ? raw.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

export function setCurrentSpace(space: string): void {
  const s = storage();
  if (!s) return;
  s.setItem(SPACE, space);
  const recent = [space, ...recentSpaces().filter((r) => r !== space)].slice(0, 10);
  s.setItem(RECENT, JSON.stringify(recent));
}

/** The `Authorization` value for a key, as the API expects it. */
export function bearer(key: string): string {
  return `Bearer ${key}`;
}
