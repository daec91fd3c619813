/**
 * Runs a full garbage collection after every `everyBytes` of data passed through a long streaming
 * job (a large upload, a mailbox backfill). Such jobs make short-lived buffers faster than the
 * collector reclaims them, so the process's resident memory climbs by tens of MB on a small NAS;
 * measured with bench/media-upload.bench.ts and bench/backfill.bench.ts (figures in those files'
 * notes). An asynchronous hint (Bun.gc(false)) did not help; a full collection costs a few ms.
 */
export function createGcPacer(everyBytes: number, collect: () => void = () => Bun.gc(true)) {
  let since = 0;
  return (bytes: number) => {
    since += bytes;
    if (since < everyBytes) return;
    since = 0;
    collect();
  };
}
