/**
 * Runs a garbage collection after every `everyBytes` of data passed through a long streaming job
 * (a large upload, a mailbox backfill). Such jobs make short-lived buffers faster than the
 * collector reclaims them, so the process's resident memory climbs by tens of MB on a small NAS;
 * measured with bench/media-upload.bench.ts and bench/backfill.bench.ts (figures in those files'
 * notes). An asynchronous hint (Bun.gc(false)) did not help; a full collection costs a few ms.
 * The pacer returns true when it collected.
 *
 * `edenCollect` is the cheap complement for garbage that dies young (a batch of parsed messages):
 * it collects only what was allocated since the last collection, so it can run far more often.
 */
import { edenGC } from "bun:jsc";

export function createGcPacer(everyBytes: number, collect: () => void = () => Bun.gc(true)) {
  let since = 0;
  return (bytes: number): boolean => {
    since += bytes;
    if (since < everyBytes) return false;
    since = 0;
    collect();
    return true;
  };
}

/** A young-generation (eden) collection: only what was allocated since the last collection. */
export const edenCollect = (): void => {
  edenGC();
};
