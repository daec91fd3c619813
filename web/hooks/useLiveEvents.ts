/**
 * React glue for the live-event stream (web/lib/live-events.ts). The App calls `useLiveEvents()`
 * once: while a user is signed in it keeps the one shared EventSource open with their token and
 * turns each event into React Query invalidations (web/lib/live-events-keys.ts). Screens read `useLastLiveUpdate()` (the time of
 * the last event, for the dashboard header) and `useLiveConnectionState()`.
 *
 * The stream's code is not needed to draw the first screen: it is loaded (`import()`) once a user
 * is signed in; until then the state reads "idle", as it does with no stream.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, useSyncExternalStore } from "react";
import { useAuth } from "../lib/auth.tsx";
import type { LiveEvents, LiveSnapshot, LiveState } from "../lib/live-events.ts";

type Loaded = { client: LiveEvents; keys: typeof import("../lib/live-events-keys.ts") };

/** The one client of this browser tab, once its code has arrived. */
let loaded: Loaded | null = null;
let loading: Promise<Loaded> | null = null;
/** Screens watching the snapshot (they may start watching before the client exists). */
const watchers = new Set<() => void>();
const IDLE: LiveSnapshot = { state: "idle", lastUpdate: null, attempts: 0 };

function loadClient(): Promise<Loaded> {
  loading ??= Promise.all([
    import("../lib/live-events.ts"),
    import("../lib/live-events-keys.ts"),
  ]).then(([lib, keys]) => {
    const client = lib.createLiveEvents({ createEventSource: (url) => new EventSource(url) });
    client.watch(() => {
      for (const fn of watchers) fn();
    });
    loaded = { client, keys };
    return loaded;
  });
  return loading;
}

const subscribeSnapshot = (onChange: () => void) => {
  watchers.add(onChange);
  return () => {
    watchers.delete(onChange);
  };
};
const getSnapshot = (): LiveSnapshot => loaded?.client.getSnapshot() ?? IDLE;

/** Mount once (App): connects for the signed-in user, reconnects on a new token, closes on logout. */
export function useLiveEvents(): void {
  const { user, token } = useAuth();
  const queryClient = useQueryClient();
  const activeToken = user && token ? token : null;
  const [live, setLive] = useState<Loaded | null>(loaded);

  useEffect(() => {
    if (activeToken && !live) {
      void loadClient().then(setLive, (err) => console.warn("live updates unavailable", err));
    }
  }, [activeToken, live]);

  useEffect(() => {
    if (!live) return;
    const { client, keys } = live;
    return client.subscribe({
      onEvent: (event) => keys.invalidateForEvent(queryClient, event),
      // Back after a drop: whatever changed meanwhile was not announced, so refetch it all.
      onResync: () => keys.invalidateEverything(queryClient),
    });
  }, [live, queryClient]);

  useEffect(() => {
    live?.client.setToken(activeToken);
  }, [live, activeToken]);

  // Given up after the maximum attempts: try again when the network comes back.
  useEffect(() => {
    if (!live) return;
    const onOnline = () => {
      if (live.client.getSnapshot().state === "stopped") live.client.reconnect();
    };
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, [live]);
}

/** When the last live event arrived; null before the first one. */
export function useLastLiveUpdate(): Date | null {
  const read = () => getSnapshot().lastUpdate;
  // The server's render (web/server-render.tsx) draws the state before any stream: the same.
  return useSyncExternalStore(subscribeSnapshot, read, read);
}

/** connected, reconnecting, stopped (plus idle when signed out and connecting at first). */
export function useLiveConnectionState(): LiveState {
  const read = () => getSnapshot().state;
  return useSyncExternalStore(subscribeSnapshot, read, read);
}
