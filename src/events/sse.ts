/**
 * Server-sent event streams: one per open browser tab. `open()` subscribes the stream to the event
 * bus for one user and returns its body; the hub keeps every open stream so that shutdown can end
 * them all (`closeAll()`) before the HTTP server waits for in-flight requests.
 *
 * Wire format (text/event-stream):
 *   retry: 1000                     once, first
 *   : connected                     once, an initial comment so the client sees bytes at once
 *   data: {"type":…,"table":…,"operation":…,"timestamp":…}   one per bus event for this user
 *   : heartbeat                     every heartbeatMs, keeps proxies and Bun's idleTimeout happy
 */
import { SSE_HEARTBEAT_MS } from "../contract/constants.ts";
import type { EventBus } from "./bus.ts";

/** Sent as `retry:`: the browser's first reconnect delay (docs/behaviour.md#constants-and-limits: 1 s, then the client backs off). */
export const SSE_RETRY_MS = 1000;
/** Tabs per user; opening one more ends that user's oldest stream. */
export const SSE_MAX_STREAMS_PER_USER = 20;
/** A client that has not read this many queued chunks is stuck: its stream is ended. */
const MAX_QUEUED_CHUNKS = 1000;

type OpenStream = { userId: number; sessionId: string | undefined; close: () => void };

export type OpenOptions = {
  userId: number;
  /** The session whose token opened the stream: its end (sign-out, password change) ends it. */
  sessionId?: string;
  /** The request's abort signal: the client went away. */
  signal?: AbortSignal;
  /** Asked at each heartbeat; false (token revoked or expired) ends the stream. */
  stillValid?: () => boolean;
};

export function createSseHub(deps: {
  events: EventBus;
  heartbeatMs?: number;
  retryMs?: number;
  maxStreamsPerUser?: number;
}) {
  const heartbeatMs = deps.heartbeatMs ?? SSE_HEARTBEAT_MS;
  const retryMs = deps.retryMs ?? SSE_RETRY_MS;
  const maxPerUser = deps.maxStreamsPerUser ?? SSE_MAX_STREAMS_PER_USER;
  const encoder = new TextEncoder();
  /** Insertion order is opening order, so the first match for a user is their oldest stream. */
  const streams = new Set<OpenStream>();

  const countFor = (userId?: number) => {
    if (userId === undefined) return streams.size;
    let n = 0;
    for (const s of streams) if (s.userId === userId) n++;
    return n;
  };

  function open(opts: OpenOptions): ReadableStream<Uint8Array> {
    const { userId, sessionId, signal, stillValid } = opts;
    let controller: ReadableStreamDefaultController<Uint8Array> | null = null;
    let done = false;
    let unsubscribe = () => {};
    let timer: ReturnType<typeof setInterval> | undefined;

    const finish = (closeBody: boolean) => {
      if (done) return;
      done = true;
      unsubscribe();
      clearInterval(timer);
      streams.delete(entry);
      signal?.removeEventListener("abort", onAbort);
      if (closeBody) {
        try {
          controller?.close();
        } catch {
          // already closed or errored
        }
      }
    };
    const onAbort = () => finish(true);
    const entry: OpenStream = { userId, sessionId, close: () => finish(true) };

    const write = (chunk: string) => {
      if (done || !controller) return;
      if ((controller.desiredSize ?? 0) < -MAX_QUEUED_CHUNKS) return finish(true);
      try {
        controller.enqueue(encoder.encode(chunk));
      } catch {
        finish(false);
      }
    };

    return new ReadableStream<Uint8Array>({
      start(c) {
        controller = c;
        if (signal?.aborted) {
          done = true;
          c.close();
          return;
        }
        write(`retry: ${retryMs}\n: connected\n\n`);
        unsubscribe = deps.events.subscribe(userId, (event) => {
          write(`data: ${JSON.stringify(event)}\n\n`);
        });
        timer = setInterval(() => {
          if (stillValid && !stillValid()) return finish(true);
          write(": heartbeat\n\n");
        }, heartbeatMs);
        signal?.addEventListener("abort", onAbort, { once: true });
        streams.add(entry);
        if (countFor(userId) > maxPerUser) {
          for (const s of streams) {
            if (s.userId === userId) {
              s.close();
              break;
            }
          }
        }
      },
      cancel() {
        finish(false);
      },
    });
  }

  return {
    heartbeatMs,
    open,
    /** Open streams, for one user or in all. */
    count: countFor,
    /** Ends the streams opened with this session (sign-out). Returns how many. */
    closeSession(sessionId: string): number {
      const hit = [...streams].filter((s) => s.sessionId === sessionId);
      for (const s of hit) s.close();
      return hit.length;
    },
    /** Ends the user's streams but those of `exceptSessionId` (password change, deletion). */
    closeUser(userId: number, exceptSessionId?: string): number {
      const hit = [...streams].filter(
        (s) =>
          s.userId === userId && (exceptSessionId === undefined || s.sessionId !== exceptSessionId),
      );
      for (const s of hit) s.close();
      return hit.length;
    },
    /** Ends every open stream (shutdown). Returns how many were open. */
    closeAll(): number {
      const all = [...streams];
      for (const s of all) s.close();
      return all.length;
    },
  };
}
export type SseHub = ReturnType<typeof createSseHub>;
