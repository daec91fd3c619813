/**
 * New mail in batches: fetch up to `batchMax` sources with one FETCH (bounded by `batchMaxBytes`;
 * both are the ingestion service's batch, injected as FetchLimits) → ingest them (one
 * transaction) → \Seen and move the batch's order mail. A message above `messageMaxBytes` is
 * never fetched. Used by the supervisor's folder sync and by "Process Old Emails".
 */
import type { ImapFlow } from "imapflow";
import type { Logger } from "../../log.ts";
import { createGcPacer, edenCollect } from "../../util/gc-pacer.ts";
import { fetchSizes, fetchSources } from "./client.ts";
import type { FetchLimits, IngestResult, MailIngestPort, MailSettings } from "./ports.ts";

/**
 * A full collection after every this many bytes of fetched mail (src/util/gc-pacer.ts), and an
 * eden (young-generation) collection after every batch that has no full one. A backfill's parsed
 * messages are short-lived and pile up faster than the collector reclaims them: nearly everything
 * a batch allocates (the sources, mailparser's buffers and strings, the reader's documents) is
 * garbage once it is ingested, and an eden collection reclaims it before the heap grows, for far
 * less than a full one costs. Eden collections per message do worse: the peak is reached while a
 * batch is fetched and ingested. The peak memory this saves is measured by
 * bench/backfill.bench.ts (figures in bench/README.md, "Memory of a backfill").
 */
const BACKFILL_GC_EVERY_BYTES = 4 * 1024 * 1024;

/** Marks and moves messages whose orders are committed. Connection loss propagates. */
async function afterCommit(
  client: ImapFlow,
  uids: readonly number[],
  settings: Pick<MailSettings, "markProcessedAsRead" | "processedFolder">,
  log: Logger,
) {
  const range = uids.join(",");
  if (settings.markProcessedAsRead) {
    try {
      await client.messageFlagsAdd(range, ["\\Seen"], { uid: true });
    } catch (err) {
      if (!client.usable) throw err;
      log.warn({ uids, err: (err as Error).message }, "could not mark processed messages as read");
    }
  }
  if (settings.processedFolder) {
    let moved: unknown = false;
    try {
      moved = await client.messageMove(range, settings.processedFolder, { uid: true });
    } catch (err) {
      if (!client.usable) throw err;
      log.warn({ uids, err: (err as Error).message }, "could not move processed messages");
      return;
    }
    if (!moved) {
      log.warn(
        { uids, folder: settings.processedFolder },
        "the server refused to move processed messages",
      );
    }
  }
}

/** fetchSources, sent ahead: a failure is seen where the sources are awaited, never unhandled. */
function prefetchSources(client: ImapFlow, uids: readonly number[]) {
  const p = fetchSources(client, uids);
  p.catch(() => undefined);
  return p;
}

/** Sizes (RFC822.SIZE) are asked for this many UIDs at once (× batchMax), then split. */
const SIZE_CHUNK_BATCHES = 10;

/** Splits ascending UIDs into fetch batches by count and by bytes (gone UIDs count 0 bytes). */
function fetchBatches(
  uids: readonly number[],
  sizes: ReadonlyMap<number, number>,
  limits: FetchLimits,
): number[][] {
  const batches: number[][] = [];
  let batch: number[] = [];
  let bytes = 0;
  for (const uid of uids) {
    const size = sizes.get(uid) ?? 0;
    // A message larger than the cap on its own still goes, alone.
    if (
      batch.length > 0 &&
      (batch.length >= limits.batchMax || bytes + size > limits.batchMaxBytes)
    ) {
      batches.push(batch);
      batch = [];
      bytes = 0;
    }
    batch.push(uid);
    bytes += size;
  }
  if (batch.length > 0) batches.push(batch);
  return batches;
}

export type ProcessUidsResult = {
  done: number;
  /** The message whose ingest threw (processing stopped there), or null. */
  failed: { uid: number; error: unknown } | null;
};

/**
 * Processes UIDs of the selected folder in order. Stops at the first message whose ingest throws
 * (so nothing after it is counted as done) and when `shouldStop` says so. Only messages whose
 * outcome is created/updated/unchanged are marked and moved; skipped ones are left alone.
 *
 * Sources are fetched in batches (one FETCH each, collected into memory before any other command:
 * imapflow must not be sent a command inside a fetch loop), the next batch's while this one is
 * ingested. A batch is ingested with `ingestMany` (every message read, then all committed in one
 * transaction, each in its own savepoint; the same outcome as one by one); only after that are
 * the batch's order messages marked \Seen / moved with one command each, and only then is
 * `onDone` called for them, in UID order — so a UID is never reported done (and never skipped at
 * the next pass) before its mark and move went out. When processing stops early, what was
 * ingested so far is still marked and moved.
 */
export async function processUids<S>(opts: {
  client: ImapFlow;
  userId: number;
  uids: readonly number[];
  ingest: MailIngestPort<S>;
  scan: S;
  limits: FetchLimits;
  settings: Pick<MailSettings, "markProcessedAsRead" | "processedFolder">;
  log: Logger;
  shouldStop: () => boolean;
  onDone: (uid: number, result: IngestResult | null) => void;
}): Promise<ProcessUidsResult> {
  const { limits } = opts;
  const sizeChunk = SIZE_CHUNK_BATCHES * limits.batchMax;
  let done = 0;
  const paceFull = createGcPacer(BACKFILL_GC_EVERY_BYTES);
  // The next batch's FETCH is sent before this batch is ingested, so the server's and the
  // network's time overlaps ours (against Gmail a round trip is tens of milliseconds, one per
  // batch). imapflow queues commands: the mark and move of a batch go out after that FETCH.
  let inFlight: Promise<Map<number, Buffer>> | null = null;
  const tooLarge = new Set<number>();
  const fetchable = (batch: readonly number[]) => batch.filter((uid) => !tooLarge.has(uid));
  try {
    for (let i = 0; i < opts.uids.length; i += sizeChunk) {
      if (opts.shouldStop()) break;
      const chunk = opts.uids.slice(i, i + sizeChunk);
      const sizes = await fetchSizes(opts.client, chunk);
      // Too large to read (RFC822.SIZE, before any body is fetched): counted in the scan and
      // never fetched; in the batches they are like a message deleted since the search (done,
      // nothing ingested), so UIDs are still reported done in order.
      for (const uid of chunk) {
        const size = sizes.get(uid) ?? 0;
        if (size <= limits.messageMaxBytes) continue;
        opts.log.warn(
          { uid, size, max: limits.messageMaxBytes },
          "a message is larger than the cap: skipped without reading it",
        );
        opts.ingest.countSkipped(opts.scan, "too-large");
        sizes.delete(uid);
        tooLarge.add(uid);
      }
      const batches = fetchBatches(chunk, sizes, limits);
      inFlight = prefetchSources(opts.client, fetchable(batches[0] ?? []));
      for (const [j, batch] of batches.entries()) {
        // Sent before the loop for the first batch, in the round before for the others.
        const sources = await inFlight!;
        inFlight = null;
        if (opts.shouldStop()) return { done, failed: null };
        if (j + 1 < batches.length) {
          inFlight = prefetchSources(opts.client, fetchable(batches[j + 1]!));
        }
        const finished: Array<{ uid: number; result: IngestResult | null }> = [];
        const toMark: number[] = [];
        let failed: ProcessUidsResult["failed"] = null;
        // Deleted or moved away since the search: nothing to ingest, done all the same.
        const present = batch.filter((uid) => sources.has(uid));
        const raws = present.map((uid) => sources.get(uid)!);
        sources.clear();
        const { results, failed: bad } =
          raws.length > 0
            ? await opts.ingest.ingestMany(opts.userId, raws, { scan: opts.scan })
            : { results: [], failed: null };
        raws.length = 0;
        // Results come in order and end where an ingest threw: UIDs after it are not done.
        const last = bad ? present[bad.index]! : Number.POSITIVE_INFINITY;
        let next = 0;
        for (const uid of batch) {
          if (uid >= last) break;
          if (present[next] !== uid) {
            finished.push({ uid, result: null });
            continue;
          }
          const result = results[next++]!;
          if (result.outcome !== "skipped") toMark.push(uid);
          finished.push({ uid, result });
        }
        if (bad) {
          opts.log.warn({ uid: last, err: bad.error }, "ingesting a message failed");
          failed = { uid: last, error: bad.error };
        }
        // The batch's sources and everything made from them are garbage now.
        if (!paceFull(batch.reduce((n, uid) => n + (sizes.get(uid) ?? 0), 0))) edenCollect();
        if (toMark.length > 0) await afterCommit(opts.client, toMark, opts.settings, opts.log);
        for (const f of finished) {
          opts.onDone(f.uid, f.result);
          if (f.result) done++;
        }
        if (failed) return { done, failed };
      }
    }
    return { done, failed: null };
  } finally {
    // Never leave a FETCH behind on the connection: whoever uses it next waits for it.
    await inFlight?.catch(() => undefined);
  }
}
