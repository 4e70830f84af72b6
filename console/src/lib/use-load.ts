/** Loading an API answer into a view: its data, its error, and a way to load it again. */
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

/** The state of one load. */
export interface Loaded<T> {
  readonly data: T | undefined;
  readonly error: Error | undefined;
  readonly loading: boolean;
  readonly reload: () => void;
}

/** Runs `load` when `deps` change; an answer that arrives after a newer load started is dropped. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ data?: T; error?: Error; loading: boolean }>({ loading: true });
  const generation = useRef(0);
  const run = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, loading: true }));
    load().then(
      (data) => mine === generation.current && setState({ data, loading: false }),
      (error: Error) => mine === generation.current && setState({ error, loading: false }),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, deps);
  useEffect(run, [run]);
  return { data: state.data, error: state.error, loading: state.loading, reload: run };
}

/** Calls `tick` every `ms` while `active` (live progress), stopping when the view goes away. */
export function usePoll(active: boolean, ms: number, tick: () => void): void {
  useEffect(() => {
    if (!active) return undefined;
    const timer = setInterval(tick, ms);
    return () => clearInterval(timer);
  }, [active, ms, tick]);
}
