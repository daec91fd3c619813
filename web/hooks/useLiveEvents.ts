/**
 * React glue for the live-event stream (web/lib/live-events.ts). The App calls `useLiveEvents()`
 * once: while a user is signed in it keeps the one shared EventSource open with their token and
 * turns each event into React Query invalidations. Screens read `useLastLiveUpdate()` (the time of
 * the last event, for the dashboard header) and `useLiveConnectionState()`.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useSyncExternalStore } from "react";
import { useAuth } from "../lib/auth.tsx";
import {
  ALL_INVALIDATION_PREFIXES,
  createLiveEvents,
  invalidateForEvent,
  invalidatePrefixes,
  type LiveSnapshot,
  type LiveState,
} from "../lib/live-events.ts";

/** The one client of this browser tab. */
export const liveEvents = createLiveEvents({
  createEventSource: (url) => new EventSource(url),
});

const subscribeSnapshot = (onChange: () => void) => liveEvents.watch(onChange);
const getSnapshot = (): LiveSnapshot => liveEvents.getSnapshot();

/** Mount once (App): connects for the signed-in user, reconnects on a new token, closes on logout. */
export function useLiveEvents(): void {
  const { user, token } = useAuth();
  const queryClient = useQueryClient();
  const activeToken = user && token ? token : null;

  useEffect(() => {
    return liveEvents.subscribe({
      onEvent: (event) => invalidateForEvent(queryClient, event),
      // Back after a drop: whatever changed meanwhile was not announced, so refetch it all.
      onResync: () => invalidatePrefixes(queryClient, ALL_INVALIDATION_PREFIXES),
    });
  }, [queryClient]);

  useEffect(() => {
    liveEvents.setToken(activeToken);
  }, [activeToken]);

  // Given up after the maximum attempts: try again when the network comes back.
  useEffect(() => {
    const onOnline = () => {
      if (liveEvents.getSnapshot().state === "stopped") liveEvents.reconnect();
    };
    window.addEventListener("online", onOnline);
    return () => window.removeEventListener("online", onOnline);
  }, []);
}

/** When the last live event arrived; null before the first one. */
export function useLastLiveUpdate(): Date | null {
  return useSyncExternalStore(subscribeSnapshot, () => getSnapshot().lastUpdate);
}

/** connected, reconnecting, stopped (plus idle when signed out and connecting at first). */
export function useLiveConnectionState(): LiveState {
  return useSyncExternalStore(subscribeSnapshot, () => getSnapshot().state);
}

/** Closes the stream and opens it again after 1 s with fresh attempts. */
export const reconnectLiveEvents = () => liveEvents.reconnect();
