/**
 * Pure rules of the Email Configuration tab (docs/screens.md, docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits): periods, the folder form (dirty
 * tracking, '__none__'), the automatic folder refresh, the expired state and the import summary.
 */

import { DEFAULT_OLD_EMAIL_PERIOD, OLD_EMAIL_PERIODS } from "../../../../src/contract/constants.ts";
import type { IngestSummary, MailFolder, SkipReason } from "../../../../src/contract/mailbox.ts";
import type { EmailSettings } from "../../../../src/contract/user.ts";
import { translate } from "../../../i18n/index.ts";

/** The processed-folder choice 'Leave in original folder'; sent to the server as absent. */
export const NONE_FOLDER = "__none__";
export const DEFAULT_FOLDER = "INBOX";
export const FOLDER_REFRESH_MAX_AGE_MS = 24 * 60 * 60 * 1000;

// ---- Process Old Emails ----

export const DEFAULT_PERIOD = DEFAULT_OLD_EMAIL_PERIOD;

/** "1 day", "30 days" (in the reader's language). */
export function periodLabel(days: number): string {
  return translate("email.process.days", { count: days });
}

/** The periods to choose from, labelled in the reader's language. */
export function periodOptions(): { value: number; label: string }[] {
  return OLD_EMAIL_PERIODS.map((d) => ({ value: d, label: periodLabel(d) }));
}

/** The confirmation of docs/behaviour.md#validation, word for word. */
export function processConfirmText(days: number): string {
  return translate("email.process.confirmText", { days });
}

// ---- Folder settings ----

export type FolderForm = {
  selectedFolder: string;
  /** A folder path or NONE_FOLDER. */
  processedFolder: string;
  markProcessedAsRead: boolean;
};

/** The saved values as the form shows them (INBOX by default; no processed folder → '__none__'). */
export function savedFolderForm(settings: EmailSettings | null | undefined): FolderForm {
  return {
    selectedFolder: settings?.selectedFolder?.trim() || DEFAULT_FOLDER,
    processedFolder: settings?.processedFolder?.trim() || NONE_FOLDER,
    markProcessedAsRead: settings?.markProcessedAsRead ?? false,
  };
}

/** True when something differs from the saved values (Save and Reset are enabled only then). */
export function folderFormDirty(form: FolderForm, saved: FolderForm): boolean {
  return (
    form.selectedFolder !== saved.selectedFolder ||
    form.processedFolder !== saved.processedFolder ||
    form.markProcessedAsRead !== saved.markProcessedAsRead
  );
}

export type FolderSelectPayload = {
  selectedFolder: string;
  processedFolder?: string;
  markProcessedAsRead: boolean;
};

/** The body of POST /api/imap/folders/select: '__none__' (or nothing) is left out. */
export function folderSelectPayload(form: FolderForm): FolderSelectPayload {
  const body: FolderSelectPayload = {
    selectedFolder: form.selectedFolder,
    markProcessedAsRead: form.markProcessedAsRead,
  };
  const p = form.processedFolder.trim();
  if (p && p !== NONE_FOLDER) body.processedFolder = p;
  return body;
}

export type SelectOption = { value: string; label: string };

/**
 * The folder options: every folder with a non-empty path, once, plus the `keep` paths (the saved
 * ones) when the list does not have them (an empty or stale list still shows what is saved).
 * No option ever has an empty value.
 */
export function folderOptions(
  folders: readonly MailFolder[] | null | undefined,
  keep: readonly (string | null | undefined)[] = [],
): SelectOption[] {
  const out: SelectOption[] = [];
  const seen = new Set<string>();
  const add = (value: string) => {
    const v = value.trim();
    if (!v || v === NONE_FOLDER || seen.has(v)) return;
    seen.add(v);
    out.push({ value: v, label: v });
  };
  for (const f of folders ?? []) add(f.path ?? "");
  for (const k of keep) if (k) add(k);
  return out;
}

/** The processed-folder options: 'Leave in original folder' first, never the monitored folder. */
export function processedFolderOptions(
  folders: readonly MailFolder[] | null | undefined,
  monitored: string,
  keep: readonly (string | null | undefined)[] = [],
): SelectOption[] {
  return [
    { value: NONE_FOLDER, label: translate("email.folders.leaveInPlace") },
    ...folderOptions(folders, keep).filter((o) => o.value !== monitored),
  ];
}

/** Choosing a monitored folder that is also the processed one resets the processed choice. */
export function withMonitoredFolder(form: FolderForm, selectedFolder: string): FolderForm {
  return {
    ...form,
    selectedFolder,
    processedFolder: form.processedFolder === selectedFolder ? NONE_FOLDER : form.processedFolder,
  };
}

/** docs/behaviour.md#constants-and-limits: connected, the list is empty and the last refresh is older than 24 h or never happened. */
export function shouldAutoRefreshFolders(opts: {
  connected: boolean;
  folderCount: number;
  lastFolderRefresh: string | null | undefined;
  now?: number;
}): boolean {
  if (!opts.connected || opts.folderCount > 0) return false;
  if (!opts.lastFolderRefresh) return true;
  const last = Date.parse(opts.lastFolderRefresh);
  if (Number.isNaN(last)) return true;
  return (opts.now ?? Date.now()) - last > FOLDER_REFRESH_MAX_AGE_MS;
}

// ---- Connection state ----

/** 'Email Authorization Expired': settings exist, not connected, and no usable credential. */
export function isAuthorizationExpired(settings: EmailSettings | null | undefined): boolean {
  return !!settings && !settings.isConnected && settings.accessToken === null;
}

// ---- Import summary ----

/** Why messages produced nothing, as a sentence for n of them: what happened, what to do. */
export function skipReasonSentence(reason: SkipReason, n: number): string {
  const count = { count: n };
  switch (reason) {
    case "not-amazon":
      return translate("email.import.skip.notAmazon", count);
    case "spoofed":
      return translate("email.import.skip.spoofed", count);
    case "forwarded":
      return translate("email.import.skip.forwarded", count);
    case "duplicate":
      return translate("email.import.skip.duplicate", count);
    case "not-an-order-mail":
      return translate("email.import.skip.notAnOrder", { count: n, where: "" });
    case "not-vine":
      return translate("email.import.skip.notVine", count);
    case "unreadable":
      return translate("email.import.skip.unreadable", count);
    case "no-matching-order":
      return translate("email.import.skip.noMatchingOrder", count);
    case "too-large":
      return translate("email.import.skip.tooLarge", count);
    default:
      return translate("email.import.skip.other", {
        count: n,
        reason: String(reason).replace(/-/g, " "),
      });
  }
}

/** The skipped counts as sentences ("2 emails were not from Amazon."), largest first; none for zero counts. */
export function skippedLines(summary: IngestSummary): { reason: SkipReason; text: string }[] {
  return (Object.entries(summary.skipped) as [SkipReason, number | undefined][])
    .filter(([, n]) => typeof n === "number" && n > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([reason, n]) => ({
      reason,
      text:
        reason === "not-an-order-mail"
          ? translate("email.import.skip.notAnOrder", {
              count: n ?? 0,
              where: byMarketplace(summary),
            })
          : skipReasonSentence(reason, n ?? 0),
    }));
}

/** " (FR 2, other marketplaces 1)": where the mail that was not understood came from. */
function byMarketplace(summary: IngestSummary): string {
  return marketplaceCounts(summary.otherByMarketplace ?? {});
}

function marketplaceCounts(counts: Partial<Record<string, number>>): string {
  const parts = Object.entries(counts)
    .filter(([, n]) => typeof n === "number" && n > 0)
    .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
    .map(([m, n]) =>
      m === "unknown"
        ? translate("email.import.otherMarketplaces", { count: n ?? 0 })
        : `${m} ${n}`,
    );
  return parts.length > 0
    ? translate("email.import.byMarketplace", {
        list: parts.join(translate("email.import.listSeparator")),
      })
    : "";
}

export function skippedTotal(summary: IngestSummary): number {
  return Object.values(summary.skipped).reduce<number>((a, n) => a + (n ?? 0), 0);
}

/**
 * The summary's first line: every message read in exactly one bucket, the buckets adding up to
 * the messages read ("45 emails read: 3 created 5 orders, 1 updated 2 orders, 2 not understood,
 * 39 skipped."); empty buckets are left out. docs/messages.md, Mail and account. Each bucket is a
 * whole phrase of its own; the list is joined with the language's separator.
 */
export function summaryHeadline(summary: IngestSummary): string {
  const b = summary.messages;
  const parts: string[] = [];
  if (b.created > 0)
    parts.push(
      translate("email.import.part.created", {
        messages: b.created,
        orders: summary.ordersCreated,
      }),
    );
  if (b.updated > 0)
    parts.push(
      translate("email.import.part.updated", {
        messages: b.updated,
        orders: summary.ordersUpdated,
      }),
    );
  if (b.unchanged > 0) parts.push(translate("email.import.part.unchanged", { count: b.unchanged }));
  if (b.notUnderstood > 0)
    parts.push(translate("email.import.part.notUnderstood", { count: b.notUnderstood }));
  if (b.skipped > 0) parts.push(translate("email.import.part.skipped", { count: b.skipped }));
  return parts.length > 0
    ? translate("email.import.headline", {
        count: summary.messagesRead,
        parts: parts.join(translate("email.import.listSeparator")),
      })
    : translate("email.import.headlineNone", { count: summary.messagesRead });
}

/**
 * What "Vine orders only" kept out of this import, when it kept anything: said first, with the
 * offer to switch (docs/messages.md, Mail and account).
 */
export function modeLimitedLine(summary: IngestSummary): string | null {
  const n = summary.modeLimited;
  if (summary.importMode !== "vine" || n <= 0) return null;
  return translate("email.import.modeLimited", { count: n });
}

/** The mail not understood, by marketplace, and what happens to it (as the scan notification). */
export function notUnderstoodLine(summary: IngestSummary): string | null {
  const n = summary.messages.notUnderstood;
  if (n <= 0) return null;
  const where = marketplaceCounts(summary.notUnderstoodByMarketplace);
  return translate("email.import.notUnderstood", { count: n, where });
}
