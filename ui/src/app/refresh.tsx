/**
 * Reads that can be refreshed on demand: after a review action lost a race the views fetch
 * again from the server at once, whatever the cache holds.
 */
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { useQuery, type AnyVariables, type UseQueryArgs, type UseQueryResponse } from 'urql';

interface Refresh {
  tick: number;
  refresh: () => void;
}

const RefreshContext = createContext<Refresh>({ tick: 0, refresh: () => undefined });

export function RefreshProvider({ children }: { children: ReactNode }) {
  const [tick, setTick] = useState(0);
  const refresh = useCallback(() => setTick((t) => t + 1), []);
  return <RefreshContext.Provider value={{ tick, refresh }}>{children}</RefreshContext.Provider>;
}

export function useRefresh(): () => void {
  return useContext(RefreshContext).refresh;
}

/** `useQuery` that also fetches again from the server whenever a refresh is asked for. */
export function useFreshQuery<Data, Variables extends AnyVariables>(
  args: UseQueryArgs<Variables, Data>): UseQueryResponse<Data, Variables> {
  const response = useQuery<Data, Variables>(args);
  const { tick } = useContext(RefreshContext);
  const seen = useRef(tick);
  const reexecute = response[1];
  useEffect(() => {
    if (tick === seen.current) return;
    seen.current = tick;
    reexecute({ requestPolicy: 'network-only' });
  }, [tick, reexecute]);
  return response;
}
