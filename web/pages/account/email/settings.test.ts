import { afterEach, describe, expect, test } from "bun:test";
import type { IngestSummary } from "../../../../src/contract/mailbox.ts";
import type { EmailSettings } from "../../../../src/contract/user.ts";
import { setLanguage } from "../../../i18n/index.ts";
import {
  DEFAULT_PERIOD,
  FOLDER_REFRESH_MAX_AGE_MS,
  folderFormDirty,
  folderOptions,
  folderSelectPayload,
  isAuthorizationExpired,
  modeLimitedLine,
  NONE_FOLDER,
  notUnderstoodLine,
  periodLabel,
  periodOptions,
  processConfirmText,
  processedFolderOptions,
  savedFolderForm,
  shouldAutoRefreshFolders,
  skippedLines,
  skippedTotal,
  summaryHeadline,
  withMonitoredFolder,
} from "./settings.ts";

const settings = (over: Partial<EmailSettings> = {}): EmailSettings => ({
  provider: "gmail",
  isConnected: true,
  emailAddress: "jane@gmail.com",
  selectedFolder: "INBOX",
  processedFolder: null,
  markProcessedAsRead: false,
  lastFolderRefresh: null,
  accessToken: "present",
  ...over,
});

const folders = [
  { name: "INBOX", path: "INBOX", specialUse: "\\Inbox" },
  { name: "Amazon", path: "Amazon", specialUse: null },
  { name: "All Mail", path: "[Gmail]/All Mail", specialUse: "\\All" },
  { name: "", path: "", specialUse: null },
  { name: "Amazon", path: "Amazon", specialUse: null },
];

describe("periods", () => {
  test("the options of docs/behaviour.md#constants-and-limits with 30 days by default", () => {
    expect(periodOptions().map((o) => o.value)).toEqual([1, 7, 14, 30, 60, 90, 120, 150, 180]);
    expect(periodOptions().map((o) => o.label)).toEqual([
      "1 day",
      "7 days",
      "14 days",
      "30 days",
      "60 days",
      "90 days",
      "120 days",
      "150 days",
      "180 days",
    ]);
    expect(DEFAULT_PERIOD).toBe(30);
    expect(periodLabel(1)).toBe("1 day");
  });

  test("the confirmation text of docs/behaviour.md#validation", () => {
    expect(processConfirmText(30)).toBe(
      "Are you sure you want to process emails from the last 30 day(s)?",
    );
  });
});

describe("folder form", () => {
  test("saved values: INBOX by default, no processed folder is '__none__'", () => {
    expect(savedFolderForm(null)).toEqual({
      selectedFolder: "INBOX",
      processedFolder: NONE_FOLDER,
      markProcessedAsRead: false,
    });
    expect(
      savedFolderForm(
        settings({ selectedFolder: "Amazon", processedFolder: "Done", markProcessedAsRead: true }),
      ),
    ).toEqual({ selectedFolder: "Amazon", processedFolder: "Done", markProcessedAsRead: true });
    expect(savedFolderForm(settings({ selectedFolder: "", processedFolder: "" }))).toEqual({
      selectedFolder: "INBOX",
      processedFolder: NONE_FOLDER,
      markProcessedAsRead: false,
    });
  });

  test("dirty only when a value differs from the saved one", () => {
    const saved = savedFolderForm(settings());
    expect(folderFormDirty({ ...saved }, saved)).toBe(false);
    expect(folderFormDirty({ ...saved, selectedFolder: "Amazon" }, saved)).toBe(true);
    expect(folderFormDirty({ ...saved, processedFolder: "Amazon" }, saved)).toBe(true);
    expect(folderFormDirty({ ...saved, markProcessedAsRead: true }, saved)).toBe(true);
    // Changed and changed back: clean again.
    const back = { ...saved, selectedFolder: "Amazon" };
    back.selectedFolder = "INBOX";
    expect(folderFormDirty(back, saved)).toBe(false);
  });

  test("'__none__' is sent as absent", () => {
    expect(
      folderSelectPayload({
        selectedFolder: "INBOX",
        processedFolder: NONE_FOLDER,
        markProcessedAsRead: true,
      }),
    ).toEqual({ selectedFolder: "INBOX", markProcessedAsRead: true });
    const body = folderSelectPayload({
      selectedFolder: "INBOX",
      processedFolder: NONE_FOLDER,
      markProcessedAsRead: false,
    });
    expect("processedFolder" in body).toBe(false);
    expect(
      folderSelectPayload({
        selectedFolder: "INBOX",
        processedFolder: "Amazon",
        markProcessedAsRead: false,
      }),
    ).toEqual({ selectedFolder: "INBOX", processedFolder: "Amazon", markProcessedAsRead: false });
  });

  test("options: no empty value, no duplicates, saved folders kept when the list lacks them", () => {
    const opts = folderOptions(folders, ["INBOX", "Old/Saved", null, ""]);
    expect(opts.map((o) => o.value)).toEqual(["INBOX", "Amazon", "[Gmail]/All Mail", "Old/Saved"]);
    expect(opts.every((o) => o.value !== "")).toBe(true);
    expect(folderOptions([], ["INBOX"]).map((o) => o.value)).toEqual(["INBOX"]);
    expect(folderOptions(undefined)).toEqual([]);
  });

  test("processed options start with 'Leave in original folder' and leave out the monitored folder", () => {
    const opts = processedFolderOptions(folders, "INBOX");
    expect(opts[0]).toEqual({ value: NONE_FOLDER, label: "Leave in original folder" });
    expect(opts.map((o) => o.value)).toEqual([NONE_FOLDER, "Amazon", "[Gmail]/All Mail"]);
    expect(opts.every((o) => o.value !== "")).toBe(true);
  });

  test("monitoring the processed folder resets the processed choice", () => {
    const form = { selectedFolder: "INBOX", processedFolder: "Amazon", markProcessedAsRead: true };
    expect(withMonitoredFolder(form, "Amazon")).toEqual({
      selectedFolder: "Amazon",
      processedFolder: NONE_FOLDER,
      markProcessedAsRead: true,
    });
    expect(withMonitoredFolder(form, "[Gmail]/All Mail").processedFolder).toBe("Amazon");
  });
});

describe("automatic folder refresh (docs/behaviour.md#constants-and-limits)", () => {
  const now = Date.parse("2026-03-01T12:00:00Z");
  const ago = (ms: number) => new Date(now - ms).toISOString();
  test("connected, empty list, never refreshed or over 24 h ago", () => {
    const base = { connected: true, folderCount: 0, now };
    expect(shouldAutoRefreshFolders({ ...base, lastFolderRefresh: null })).toBe(true);
    expect(
      shouldAutoRefreshFolders({ ...base, lastFolderRefresh: ago(FOLDER_REFRESH_MAX_AGE_MS + 1) }),
    ).toBe(true);
    expect(shouldAutoRefreshFolders({ ...base, lastFolderRefresh: ago(60_000) })).toBe(false);
    expect(shouldAutoRefreshFolders({ ...base, lastFolderRefresh: "not a date" })).toBe(true);
  });
  test("never when not connected or the list has folders", () => {
    expect(
      shouldAutoRefreshFolders({ connected: false, folderCount: 0, lastFolderRefresh: null, now }),
    ).toBe(false);
    expect(
      shouldAutoRefreshFolders({ connected: true, folderCount: 3, lastFolderRefresh: null, now }),
    ).toBe(false);
  });
});

test("'Email Authorization Expired': settings, not connected, no access token", () => {
  expect(isAuthorizationExpired(settings({ isConnected: false, accessToken: null }))).toBe(true);
  expect(isAuthorizationExpired(settings())).toBe(false);
  expect(isAuthorizationExpired(settings({ isConnected: false, accessToken: "present" }))).toBe(
    false,
  );
  expect(isAuthorizationExpired(null)).toBe(false);
});

/** A summary with its message buckets filled from `skipped` and the given counts. */
function aSummary(over: Partial<IngestSummary> & Pick<IngestSummary, "skipped">): IngestSummary {
  const skipped = Object.values(over.skipped).reduce<number>((a, n) => a + (n ?? 0), 0);
  const messages = over.messages ?? {
    created: over.ordersCreated ?? 0,
    updated: 0,
    unchanged: 0,
    notUnderstood: 0,
    skipped,
  };
  return {
    messagesRead:
      messages.created + messages.updated + messages.unchanged + messages.notUnderstood + skipped,
    ordersCreated: 0,
    ordersUpdated: 0,
    notUnderstoodByMarketplace: {},
    modeLimited: 0,
    importMode: "vine",
    ...over,
    messages,
  };
}

test("import summary: skipped reasons as sentences saying what to do, largest first, zeros left out", () => {
  const summary = aSummary({
    ordersCreated: 1,
    skipped: { "not-amazon": 2, spoofed: 1, duplicate: 0, "not-vine": 5 },
  });
  expect(skippedLines(summary).map((l) => l.text)).toEqual([
    "5 emails were not about a Vine order (a free order: a total of 0 in any currency). To import every Amazon order, choose “All Amazon orders” above and import the files again.",
    "2 emails were not from Amazon.",
    "1 email claimed to be from Amazon but failed the sender checks, so it was ignored.",
  ]);
  // An update about an unknown order says what to do, in a sentence (not "3 an update for...").
  expect(skippedLines({ ...summary, skipped: { "no-matching-order": 3 } })[0]?.text).toBe(
    "3 emails were updates (shipped, delivered, canceled) about orders Grapevine does not have yet. Import or backfill the period with their order confirmations first, then import them again.",
  );
  expect(skippedTotal(summary)).toBe(8);
  expect(skippedLines({ ...summary, skipped: {} })).toEqual([]);
});

test("import summary: Amazon mail not understood is counted by marketplace", () => {
  const summary = aSummary({
    skipped: { "not-an-order-mail": 4 },
    otherByMarketplace: { unknown: 1, FR: 3, DE: 0 },
  });
  expect(skippedLines(summary).map((l) => l.text)).toEqual([
    "4 emails from Amazon were not about an order (FR 3, other marketplaces 1).",
  ]);
});

test("import summary: the first line puts every message in one bucket, adding up to the messages read", () => {
  // 45 messages: 3 created 5 orders, 1 updated 2, 2 not understood, 39 skipped (the issue's
  // "Messages read 45 · Orders created 5 · Skipped 41" counted orders among messages).
  const summary = aSummary({
    ordersCreated: 5,
    ordersUpdated: 2,
    messages: { created: 3, updated: 1, unchanged: 0, notUnderstood: 2, skipped: 39 },
    skipped: { "not-amazon": 30, "not-vine": 8, duplicate: 1 },
    notUnderstoodByMarketplace: { JP: 2 },
    modeLimited: 8,
  });
  expect(summary.messagesRead).toBe(45);
  expect(summaryHeadline(summary)).toBe(
    "45 emails read: 3 created 5 orders, 1 updated 2 orders, 2 not understood, 39 skipped.",
  );
  expect(notUnderstoodLine(summary)).toBe(
    "2 emails from Amazon were not understood (JP 2); they are read again when Grapevine's mail reader is updated.",
  );
  expect(modeLimitedLine(summary)).toBe(
    "“Vine orders only” kept 8 emails about other Amazon orders out (paid orders and their updates).",
  );
  // Nothing kept out, or all orders imported: no such line; nothing read: the count alone.
  expect(modeLimitedLine({ ...summary, modeLimited: 0 })).toBeNull();
  expect(modeLimitedLine({ ...summary, importMode: "all" })).toBeNull();
  expect(notUnderstoodLine(aSummary({ skipped: {} }))).toBeNull();
  expect(summaryHeadline(aSummary({ skipped: {} }))).toBe("0 emails read.");
  expect(
    summaryHeadline(
      aSummary({
        ordersCreated: 1,
        messages: { created: 1, updated: 0, unchanged: 1, notUnderstood: 0, skipped: 0 },
        skipped: {},
      }),
    ),
  ).toBe("2 emails read: 1 created 1 order, 1 changed nothing.");
});

describe("in the reader's language", () => {
  afterEach(() => setLanguage("en"));

  test("German: plurals and numbers in German, whole sentences from the catalog", async () => {
    await setLanguage("de");
    expect(periodLabel(1)).toBe("1 Tag");
    expect(periodOptions().map((o) => o.label)[3]).toBe("30 Tage");
    expect(processConfirmText(1)).toBe(
      "Möchten Sie wirklich die E-Mails des letzten Tages verarbeiten?",
    );
    const summary = aSummary({
      ordersCreated: 1,
      messages: { created: 1, updated: 0, unchanged: 0, notUnderstood: 0, skipped: 1200 },
      skipped: { "not-amazon": 1200 },
    });
    expect(summaryHeadline(summary)).toBe(
      "1.201 E-Mails gelesen: 1 legten 1 Bestellung an, 1.200 übersprungen.",
    );
    expect(skippedLines(summary)[0]?.text).toBe("1.200 E-Mails waren nicht von Amazon.");
    expect(processedFolderOptions([], "INBOX")[0]?.label).toBe("Im ursprünglichen Ordner lassen");
  });

  test("Japanese: one form for every count", async () => {
    await setLanguage("ja");
    expect(periodLabel(1)).toBe("1 日");
    expect(periodLabel(30)).toBe("30 日");
    expect(skippedLines(aSummary({ skipped: { duplicate: 2 } }))[0]?.text).toBe(
      "メール 2 通は既に読み取り済みのため、変更はありません。",
    );
  });
});
