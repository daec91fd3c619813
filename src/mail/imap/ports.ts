/**
 * What the supervisor, the folder sync and the fetch batches need from the rest of the app, as
 * types: the ingestion service (src/features/mailbox/ingest.*) and the folder positions
 * (mail_folder_state) are injected, never imported, since src/mail/ does not depend on
 * src/features/.
 */
import type { ImapFlow } from "imapflow";

/** One message's outcome, as much of it as the supervisor reads. */
export type IngestResult = { outcome: "created" | "updated" | "unchanged" | "skipped" };
/** What the supervisor uses of the ingestion service (a batch in, committed when it resolves). */
export type MailIngestPort<S = unknown> = {
  beginScan(userId: number, source: "imap" | "backfill"): S;
  ingestMany(
    userId: number,
    raws: Uint8Array[],
    opts: { scan: S },
  ): Promise<{ results: IngestResult[]; failed: { index: number; error: unknown } | null }>;
  endScan(scan: S): unknown;
  /** Counts a message that was not read at all (too large) in the scan's summary. */
  countSkipped(scan: S, reason: "too-large"): void;
};

/** How much the supervisor fetches at once (one ingest batch), and the largest message it reads. */
export type FetchLimits = {
  /** Messages per FETCH (one ingest batch). */
  batchMax: number;
  /** Bytes of sources (RFC822.SIZE) held in memory at once. */
  batchMaxBytes: number;
  /** A message larger than this (RFC822.SIZE) is never fetched: counted skipped "too-large". */
  messageMaxBytes: number;
};

/** What the supervisor needs to know about the user's folder settings. */
export type MailSettings = {
  selectedFolder: string;
  processedFolder: string | null;
  markProcessedAsRead: boolean;
};

export type FolderState = { uidValidity: number; lastUid: number; updatedAt: string };
export type FolderStateStore = {
  get(userId: number, folder: string): FolderState | null;
  set(userId: number, folder: string, uidValidity: number, lastUid: number): void;
};

/** A pass over new mail in the open folder (built by createMailSync, run by the supervisor). */
export type SyncFn = (
  client: ImapFlow,
  settings: MailSettings,
  shouldStop: () => boolean,
) => Promise<void>;
