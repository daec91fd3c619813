/**
 * Reading uploaded .eml/.mbox files through the mail pipeline (POST /api/imap/import; the route
 * spools the upload to files and checks their kinds, this service reads them).
 *
 * - Every message goes through the ingestion service in one scan, in batches (`batcher`: one
 *   transaction per batch); the ledger makes reading a message twice harmless.
 * - The per-message cap is the IMAP one (MAIL_MESSAGE_MAX_BYTES): a larger .eml or mbox entry is
 *   counted skipped "too-large" and never parsed (the mbox splitter does not even keep it).
 * - Each file has a row in mail_imports while it is read, with how many of its messages are
 *   committed (recorded every `progressEvery` messages, after a flush, so the count is exact). A
 *   file read to its end loses its row (and so do earlier imports of the same file name). A row no
 *   running import owns is an import cut short (a restart, a failure): `interrupted` lists them
 *   for the mailbox screen, which says which file stopped where and that importing it again
 *   finishes it without duplicates.
 */
import fs from "node:fs";
import fsp from "node:fs/promises";
import type { IngestSummary, InterruptedImport } from "../../contract/index.ts";
import { MAIL_MESSAGE_MAX_BYTES, type MailIngestService } from "./ingest.service.ts";
import type { MailImportRepo } from "./mail-import.repo.ts";
import { splitMbox } from "./mbox.ts";

/** An uploaded file, spooled to disk and sniffed by the route. */
export type SpooledMailFile = { label: string; path: string; size: number; kind: "eml" | "mbox" };

const fmt = (n: number) => n.toLocaleString("en-US");

export function interruptedMessage(fileName: string, messagesRead: number): string {
  const where =
    messagesRead > 0
      ? `stopped after ${fmt(messagesRead)} message${messagesRead === 1 ? "" : "s"}`
      : "stopped before any of its messages was read";
  return `The import of "${fileName}" ${where} and did not finish (the server restarted or the import failed). Import the same file again to finish it: messages already read are skipped, nothing is duplicated.`;
}

export function createMailImportService(deps: {
  ingest: Pick<MailIngestService, "beginScan" | "batcher" | "countSkipped" | "endScan">;
  repo: MailImportRepo;
  messageMaxBytes?: number;
  progressEvery?: number;
}) {
  const max = deps.messageMaxBytes ?? MAIL_MESSAGE_MAX_BYTES;
  const progressEvery = deps.progressEvery ?? 500;
  /** mail_imports rows owned by an import running in this process. */
  const active = new Set<number>();

  return {
    /** Reads the files in order; the summary of the one scan. */
    async importFiles(userId: number, files: readonly SpooledMailFile[]): Promise<IngestSummary> {
      const ids = deps.repo.start(
        userId,
        files.map((f) => ({ name: f.label, bytes: f.size })),
      );
      for (const id of ids) active.add(id);
      const scan = deps.ingest.beginScan(userId, "import");
      try {
        const batch = deps.ingest.batcher(userId, scan);
        for (const [i, f] of files.entries()) {
          const id = ids[i]!;
          if (f.kind === "eml") {
            if (f.size > max) deps.ingest.countSkipped(scan, "too-large");
            else await batch.add(await fsp.readFile(f.path));
          } else {
            const stream = fs.createReadStream(f.path, { highWaterMark: 256 * 1024 });
            try {
              for await (const msg of splitMbox(stream, { maxMessageBytes: max })) {
                if (msg.truncated) deps.ingest.countSkipped(scan, "too-large");
                else await batch.add(msg.bytes);
                if ((msg.index + 1) % progressEvery === 0) {
                  await batch.flush();
                  deps.repo.progress(id, msg.index + 1);
                }
              }
            } finally {
              stream.destroy();
            }
          }
          await batch.flush();
          deps.repo.finish(id, userId, f.label);
          active.delete(id);
        }
        return deps.ingest.endScan(scan);
      } finally {
        // What was committed before an error is announced too; unfinished files stay listed.
        if (!scan.ended) deps.ingest.endScan(scan);
        for (const id of ids) active.delete(id);
      }
    },

    /** Forgets the user's imports that stopped before their end (not the running ones). */
    dismissInterrupted(userId: number): number {
      const ids = deps.repo
        .listFor(userId)
        .filter((r) => !active.has(r.id))
        .map((r) => r.id);
      deps.repo.remove(ids);
      return ids.length;
    },

    /** Files of imports that stopped before their end (not running now), oldest first. */
    interrupted(userId: number): InterruptedImport[] {
      return deps.repo
        .listFor(userId)
        .filter((r) => !active.has(r.id))
        .map((r) => ({
          fileName: r.fileName,
          fileBytes: r.fileBytes,
          messagesRead: r.messagesRead,
          startedAt: r.startedAt,
          lastProgressAt: r.updatedAt,
          message: interruptedMessage(r.fileName, r.messagesRead),
        }));
    },
  };
}
export type MailImportService = ReturnType<typeof createMailImportService>;
