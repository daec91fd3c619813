/**
 * /api/imap/* and POST /api/user/disconnect-email against a real Dovecot standing in for Gmail
 * (test/support/dovecot.ts): app-password connect, status, folders, backfill ("Process Old
 * Emails"), mark-as-read and move only after commit, rate limits, disconnect.
 */
import { describe, expect, test } from "bun:test";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ConfigError, loadConfig } from "../../src/config.ts";
import type { MailboxStatus, MailFolder, UserData } from "../../src/contract/index.ts";
import { createSecrets, SecretError } from "../../src/lib/secrets.ts";
import { startDovecot } from "../support/dovecot.ts";
import {
  connectedUser,
  dovecotSuite,
  type ImapHarness,
  mailUsers,
  ordersOf,
  vineOrder as vine,
} from "../support/imap-suite.ts";
import { waitFor } from "../support/wait.ts";
import { call, type ErrorBody } from "./helpers.ts";
import { plainMail } from "./mail-messages.ts";

const suite = dovecotSuite({
  users: mailUsers([
    "amy",
    "bob",
    "cal",
    "deb",
    "eli",
    "flo",
    "gil",
    "hap",
    "ivy",
    "jay",
    "kim",
    "lou",
    "mia",
  ]),
});

async function statusOf(hh: ImapHarness, token: string) {
  return call<MailboxStatus>(hh, "GET", "/api/imap/status", { token });
}

describe("access", () => {
  test("every mailbox route needs a token", async () => {
    const h = suite.harness();
    const routes: Array<[string, string]> = [
      ["POST", "/api/imap/app-password"],
      ["GET", "/api/imap/status"],
      ["POST", "/api/imap/reconnect/manual"],
      ["POST", "/api/imap/retry-idle"],
      ["GET", "/api/imap/folders"],
      ["POST", "/api/imap/folders/refresh"],
      ["POST", "/api/imap/folders/select"],
      ["POST", "/api/imap/initialize"],
      ["POST", "/api/imap/process-emails"],
      ["POST", "/api/user/disconnect-email"],
    ];
    for (const [method, url] of routes) {
      const r = await call(h, method, url);
      expect([url, r.status, r.body.error]).toEqual([url, 401, "Access token required"]);
    }
  }, 15_000);

  test("without a mailbox: status 404, folders and actions 409 with a clear message", async () => {
    const h = suite.harness();
    const u = await h.register();
    const st = await statusOf(h, u.token);
    expect(st.status).toBe(404);
    expect((st.body as unknown as ErrorBody).error).toContain("No mailbox is connected");
    for (const [method, url, body] of [
      ["GET", "/api/imap/folders", undefined],
      ["POST", "/api/imap/folders/refresh", undefined],
      ["POST", "/api/imap/initialize", undefined],
      ["POST", "/api/imap/reconnect/manual", undefined],
      ["POST", "/api/imap/retry-idle", undefined],
      ["POST", "/api/imap/process-emails", { daysBack: 30 }],
      ["POST", "/api/imap/folders/select", { selectedFolder: "INBOX", markProcessedAsRead: false }],
    ] as const) {
      const r = await call(h, method, url, { token: u.token, body });
      expect([url, r.status]).toEqual([url, 409]);
      expect(r.body.error).toContain("Connect your Gmail account first");
    }
    const data = await call<UserData>(h, "GET", "/api/user/data", { token: u.token });
    expect(data.body.emailSettings).toBeNull();
  }, 15_000);
});

describe("connect with an app password", () => {
  test("a wrong password is refused with the exact message and nothing is stored", async () => {
    const h = suite.harness();
    const u = await h.register();
    const r = await call(h, "POST", "/api/imap/app-password", {
      token: u.token,
      body: { email: "amy@example.test", appPassword: "wrong-one" },
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      error: "Gmail refused this address and app password. Check both and try again.",
    });
    const rows = h.db.$client.query("SELECT COUNT(*) AS n FROM mailbox_accounts").get() as {
      n: number;
    };
    expect(rows.n).toBe(0);
    expect(h.services.mailbox.manager.size()).toBe(0);
  }, 15_000);

  test("bad input is a 400 naming the field", async () => {
    const h = suite.harness();
    const u = await h.register();
    for (const [body, msg] of [
      [{ appPassword: "x" }, "Gmail address is required"],
      [{ email: "not-an-address", appPassword: "x" }, "Enter a valid Gmail address"],
      [{ email: "amy@example.test" }, "App password is required"],
      [{ email: "amy@example.test", appPassword: "   " }, "App password is required"],
    ] as const) {
      const r = await call(h, "POST", "/api/imap/app-password", { token: u.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error).toBe(msg);
    }
  }, 15_000);

  test("the right password (spaces as Google shows them are fine) connects; the secret is encrypted at rest", async () => {
    const hh = suite.harness();
    const u = await hh.register();
    const events = hh.watchEvents(u.userid);
    const r = await call<{ success: boolean; emailSettings: UserData["emailSettings"] }>(
      hh,
      "POST",
      "/api/imap/app-password",
      { token: u.token, body: { email: " Amy@Example.test ", appPassword: "app-pass -amy" } },
    );
    // "app-pass -amy" loses its space and is the right password.
    expect(r.status).toBe(200);
    expect(r.body.success).toBe(true);
    expect(r.body.emailSettings).toMatchObject({
      provider: "gmail",
      isConnected: true,
      emailAddress: "amy@example.test",
      selectedFolder: "INBOX",
      processedFolder: null,
      markProcessedAsRead: false,
      accessToken: "present",
    });
    expect(events.some((e) => e.table === "user")).toBe(true);

    const row = hh.db.$client
      .query("SELECT auth_type, secret_enc FROM mailbox_accounts WHERE user_id = ?")
      .get(u.userid) as { auth_type: string; secret_enc: string };
    expect(row.auth_type).toBe("app-password");
    expect(row.secret_enc.startsWith("v1:")).toBe(true);
    expect(row.secret_enc).not.toContain("app-pass-amy");
    const keyFile = path.join(hh.config.dataDir, "secret.key");
    expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);

    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE");
    const st = (await statusOf(hh, u.token)).body;
    expect(st).toMatchObject({
      status: "idle",
      lastError: null,
      folder: "INBOX",
      emailsScanned: 0,
      lastProcessedTime: null,
      manualReconnect: { available: false, buttonState: "hidden" },
      idleRetry: { available: false, buttonState: "hidden" },
    });
    expect(events.some((e) => e.table === "IMAP")).toBe(true);

    // initialize is idempotent: still one supervisor.
    for (let i = 0; i < 2; i++) {
      const init = await call(hh, "POST", "/api/imap/initialize", { token: u.token });
      expect(init.status).toBe(200);
    }
    expect(hh.services.mailbox.manager.size()).toBe(1);

    const data = await call<UserData>(hh, "GET", "/api/user/data", { token: u.token });
    expect(JSON.stringify(data.body)).not.toContain("app-pass-amy");
    const exp = await call(hh, "GET", "/api/user/export", { token: u.token });
    expect(JSON.stringify(exp.body)).toContain("amy@example.test");
    expect(JSON.stringify(exp.body)).not.toContain("app-pass-amy");
  }, 15_000);
});

describe("folders", () => {
  test("listed with special-use flags from the server; refresh; automatic refresh when empty and stale", async () => {
    const hh = suite.harness();
    const u = await connectedUser(hh, "bob@example.test");
    const list = await call<MailFolder[]>(hh, "GET", "/api/imap/folders", { token: u.token });
    expect(list.status).toBe(200);
    expect(list.body[0]).toEqual({ name: "INBOX", path: "INBOX", specialUse: "\\Inbox" });
    expect(list.body).toContainEqual({
      name: "All Mail",
      path: "[Gmail]/All Mail",
      specialUse: "\\All",
    });
    expect(list.body).toContainEqual({
      name: "Trash",
      path: "[Gmail]/Trash",
      specialUse: "\\Trash",
    });
    expect(list.body).toContainEqual({ name: "Vine", path: "Vine", specialUse: null });

    await suite.dc.createFolder("bob@example.test", "Amazon Done");
    const cached = await call<MailFolder[]>(hh, "GET", "/api/imap/folders", { token: u.token });
    expect(cached.body.some((f) => f.path === "Amazon Done")).toBe(false);
    const refreshed = await call<MailFolder[]>(hh, "POST", "/api/imap/folders/refresh", {
      token: u.token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.some((f) => f.path === "Amazon Done")).toBe(true);

    // Empty cache, last refresh 25 h ago: GET refreshes by itself. 1 h ago: it does not.
    const setCache = (ago: number) =>
      hh.db.$client
        .query(
          "UPDATE mailbox_accounts SET folders_json = '[]', last_folder_refresh = ? WHERE user_id = ?",
        )
        .run(new Date(Date.now() - ago).toISOString(), u.userid);
    setCache(60 * 60 * 1000);
    expect(
      (await call<MailFolder[]>(hh, "GET", "/api/imap/folders", { token: u.token })).body,
    ).toEqual([]);
    setCache(25 * 60 * 60 * 1000);
    const asked = Math.floor(Date.now() / 1000) * 1000;
    const auto = await call<MailFolder[]>(hh, "GET", "/api/imap/folders", { token: u.token });
    expect(auto.body.length).toBeGreaterThan(5);
    const data = await call<UserData>(hh, "GET", "/api/user/data", { token: u.token });
    // The refresh time moved from 25 h ago to the moment of this request.
    expect(Date.parse(data.body.emailSettings!.lastFolderRefresh!)).toBeGreaterThanOrEqual(asked);
  }, 15_000);

  test("[Google Mail] naming: special use comes from the server, not the name", async () => {
    const uk = await startDovecot({
      users: [{ user: "uk@example.test", pass: "uk-pass" }],
      gmailFolder: "[Google Mail]",
    });
    try {
      const h = suite.harness({}, uk);
      const u = await h.register();
      expect((await h.connect(u.token, "uk@example.test")).status).toBe(200);
      const list = await call<MailFolder[]>(h, "GET", "/api/imap/folders", { token: u.token });
      expect(list.body).toContainEqual({
        name: "All Mail",
        path: "[Google Mail]/All Mail",
        specialUse: "\\All",
      });
      expect(list.body).toContainEqual({
        name: "Sent Mail",
        path: "[Google Mail]/Sent Mail",
        specialUse: "\\Sent",
      });
      await h.close();
    } finally {
      await uk.stop();
    }
  }, 15_000);

  test("select: unknown folders and processed = monitored are 400; a valid choice moves IDLE to the new folder", async () => {
    const hh = suite.harness();
    const u = await connectedUser(hh, "cal@example.test");
    const sel = (body: unknown) =>
      call(hh, "POST", "/api/imap/folders/select", { token: u.token, body });

    let r = await sel({ selectedFolder: "Nope", markProcessedAsRead: false });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('"Nope" is not a folder of this mailbox');
    r = await sel({
      selectedFolder: "Vine",
      processedFolder: "Nowhere",
      markProcessedAsRead: false,
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain('"Nowhere" is not a folder');
    r = await sel({ selectedFolder: "Vine", processedFolder: "Vine", markProcessedAsRead: false });
    expect(r.status).toBe(400);
    expect(r.body.error).toContain("must be different from the monitored folder");
    r = await sel({ selectedFolder: "Vine" });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("markProcessedAsRead must be true or false");
    r = await sel({ selectedFolder: "", markProcessedAsRead: true });
    expect(r.status).toBe(400);

    const events = hh.watchEvents(u.userid);
    r = await sel({
      selectedFolder: "Vine",
      processedFolder: "__none__",
      markProcessedAsRead: true,
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({
      success: true,
      emailSettings: { selectedFolder: "Vine", processedFolder: null, markProcessedAsRead: true },
    });
    expect(events.some((e) => e.table === "user")).toBe(true);
    await waitFor(async () => {
      const s = (await statusOf(hh, u.token)).body;
      return s.status === "idle" && s.folder === "Vine";
    }, "IDLE on Vine");

    const inInbox = vine("Left In Inbox");
    const inVine = vine("Filed Under Vine");
    const laterInVine = vine("Filed Later Under Vine");
    await suite.dc.append("cal@example.test", inInbox.raw);
    await suite.dc.append("cal@example.test", inVine.raw, { folder: "Vine" });
    await waitFor(() => ordersOf(hh, u.userid).length >= 1, "the Vine folder's order");
    // Mail arriving in Vine after the INBOX message is read; the INBOX message never is.
    await suite.dc.append("cal@example.test", laterInVine.raw, { folder: "Vine" });
    await waitFor(() => ordersOf(hh, u.userid).length >= 2, "the later Vine order");
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
      "Filed Under Vine",
      "Filed Later Under Vine",
    ]);
    // Marked read (after its order was committed), as chosen.
    const msgs = await suite.dc.messages("cal@example.test", "Vine");
    expect(msgs[0]!.flags).toContain("\\Seen");
  }, 15_000);
});

describe("Process Old Emails (backfill)", () => {
  test("reads Amazon's mail since daysBack, fetches nothing else, and a second run changes nothing", async () => {
    const hh = suite.harness();
    const u = await hh.register();
    const now = Date.now();
    const day = 24 * 60 * 60 * 1000;
    const recent = [vine("Recent One"), vine("Recent Two")];
    const old = vine("Older Than The Period");
    await suite.dc.append("deb@example.test", recent[0]!.raw, { date: new Date(now - 3 * day) });
    await suite.dc.append("deb@example.test", old.raw, { date: new Date(now - 40 * day) });
    await suite.dc.append(
      "deb@example.test",
      plainMail({ from: "bank@example.com", subject: "Statement", messageId: "bank@x" }),
      { date: new Date(now - 2 * day) },
    );
    await suite.dc.append("deb@example.test", recent[1]!.raw, { date: new Date(now - day) });

    expect((await hh.connect(u.token, "deb@example.test")).status).toBe(200);
    await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE");
    // Monitoring starts at the folder's end: old mail waits for the backfill.
    expect(ordersOf(hh, u.userid)).toEqual([]);

    const events = hh.watchEvents(u.userid);
    let r = await call(hh, "POST", "/api/imap/process-emails", {
      token: u.token,
      body: { daysBack: 30 },
    });
    expect(r.status).toBe(202);
    expect(r.body as unknown).toEqual({
      success: true,
      message: "Starting to scan your emails for Amazon Vine orders. This may take a moment.",
    });
    await hh.services.mailbox.backfillDone(u.userid);
    const names = ordersOf(hh, u.userid).map((o) => o.productname);
    expect(names).toEqual(["Recent One", "Recent Two"]);
    expect(hh.ingested.map((i) => i.messageId)).toEqual([
      recent[0]!.messageId,
      recent[1]!.messageId,
    ]);
    expect(events.some((e) => e.table === "IMAP")).toBe(true);
    const bf = hh.db.$client
      .query("SELECT status FROM mail_backfills WHERE user_id = ?")
      .get(u.userid) as { status: string };
    expect(bf.status).toBe("done");
    const notes = hh.services.notifications.list(u.userid);
    expect(notes.length).toBe(1); // one summary for the scan, not one per message

    r = await call(hh, "POST", "/api/imap/process-emails", {
      token: u.token,
      body: { daysBack: 60 },
    });
    expect(r.status).toBe(202);
    await hh.services.mailbox.backfillDone(u.userid);
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
      "Recent One",
      "Recent Two",
      "Older Than The Period",
    ]);
    r = await call(hh, "POST", "/api/imap/process-emails", {
      token: u.token,
      body: { daysBack: 60 },
    });
    await hh.services.mailbox.backfillDone(u.userid);
    expect(ordersOf(hh, u.userid).length).toBe(3);
    expect((await statusOf(hh, u.token)).body.emailsScanned).toBe(3);

    for (const bad of [{ daysBack: 5 }, { daysBack: "30" }, {}]) {
      const b = await call(hh, "POST", "/api/imap/process-emails", { token: u.token, body: bad });
      expect(b.status).toBe(400);
    }
  }, 15_000);

  test("mark-as-read and the move happen only after the orders are committed, never for skipped or failed mail", async () => {
    const hh = suite.harness();
    const u = await hh.register();
    const day = 24 * 60 * 60 * 1000;
    const slow = vine("Slow To Commit");
    const failing = vine("Fails To Ingest");
    const fine = vine("Goes Fine");
    const spoofed = vine("Spoofed Sender", {
      auth: "mx.google.com; dkim=fail header.i=@amazon.com; dmarc=fail header.from=amazon.com",
    });
    for (const m of [slow, failing, spoofed, fine]) {
      await suite.dc.append("eli@example.test", m.raw, { date: new Date(Date.now() - day) });
    }
    expect((await hh.connect(u.token, "eli@example.test")).status).toBe(200);
    let r = await call(hh, "POST", "/api/imap/folders/select", {
      token: u.token,
      body: { selectedFolder: "INBOX", processedFolder: "Processed", markProcessedAsRead: true },
    });
    expect(r.status).toBe(200);

    let release: () => void = () => {};
    const gate = new Promise<void>((res) => {
      release = res;
    });
    let slowStarted = false;
    hh.setIngestHook(async ({ raw }) => {
      if (raw.includes(slow.messageId)) {
        slowStarted = true;
        await gate;
      }
      if (raw.includes(failing.messageId)) throw new Error("database is locked (simulated)");
    });
    r = await call(hh, "POST", "/api/imap/process-emails", {
      token: u.token,
      body: { daysBack: 7 },
    });
    expect(r.status).toBe(202);
    await waitFor(() => slowStarted, "the slow ingest");
    // While its ingest has not resolved, the message is neither read nor moved.
    let inbox = await suite.dc.messages("eli@example.test", "INBOX");
    expect(inbox.length).toBe(4);
    expect(inbox.every((m) => !m.flags.includes("\\Seen"))).toBe(true);
    expect(await suite.dc.messages("eli@example.test", "Processed")).toEqual([]);
    release();
    await hh.services.mailbox.backfillDone(u.userid);

    // Slow and fine: committed, then read and moved. Failing and spoofed: left alone, unread.
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
      "Slow To Commit",
      "Goes Fine",
    ]);
    const processed = await suite.dc.messages("eli@example.test", "Processed");
    expect(processed.length).toBe(2);
    expect(processed.every((m) => m.flags.includes("\\Seen"))).toBe(true);
    inbox = await suite.dc.messages("eli@example.test", "INBOX");
    expect(inbox.length).toBe(2);
    expect(inbox.every((m) => !m.flags.includes("\\Seen"))).toBe(true);
    expect(hh.ingested.filter((i) => i.messageId === failing.messageId).length).toBe(2); // retried
    expect(hh.ingested.find((i) => i.messageId === spoofed.messageId)?.outcome).toBe("skipped");
  }, 15_000);

  test("many batches: each committed, marked and moved while the next is fetched; a mid-run failure stops in order", async () => {
    const hh = suite.harness();
    const u = await hh.register();
    const day = 24 * 60 * 60 * 1000;
    // 40 order mails (three fetch batches and more), a newsletter among them; one fails once.
    const mails = Array.from({ length: 40 }, (_, i) => vine(`Batch Order ${i + 1}`));
    for (const [i, m] of mails.entries()) {
      await suite.dc.append("mia@example.test", m.raw, { date: new Date(Date.now() - day) });
      if (i === 20) {
        await suite.dc.append(
          "mia@example.test",
          plainMail({ from: "news@shop.example", subject: "Deals", messageId: "deals@x" }),
          { date: new Date(Date.now() - day) },
        );
      }
    }
    expect((await hh.connect(u.token, "mia@example.test")).status).toBe(200);
    const sel = await call(hh, "POST", "/api/imap/folders/select", {
      token: u.token,
      body: { selectedFolder: "INBOX", processedFolder: "Processed", markProcessedAsRead: true },
    });
    expect(sel.status).toBe(200);
    let failOnce = true;
    hh.setIngestHook(({ raw }) => {
      if (failOnce && raw.includes(mails[18]!.messageId)) {
        failOnce = false;
        throw new Error("database is locked (simulated)");
      }
    });
    const r = await call(hh, "POST", "/api/imap/process-emails", {
      token: u.token,
      body: { daysBack: 7 },
    });
    expect(r.status).toBe(202);
    await hh.services.mailbox.backfillDone(u.userid);

    // Every order exactly once, in mail order; the retry picked up the failed one and the rest.
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual(
      mails.map((_, i) => `Batch Order ${i + 1}`),
    );
    expect(hh.ingested.filter((i) => i.messageId === mails[18]!.messageId).length).toBe(2);
    for (const m of mails.slice(0, 18)) {
      expect(hh.ingested.filter((i) => i.messageId === m.messageId).length).toBe(1);
    }
    const processed = await suite.dc.messages("mia@example.test", "Processed");
    expect(processed.length).toBe(40);
    expect(processed.every((m) => m.flags.includes("\\Seen"))).toBe(true);
    const inbox = await suite.dc.messages("mia@example.test", "INBOX");
    expect(inbox.length).toBe(1); // the newsletter: never read, never moved
    expect(inbox[0]!.flags.includes("\\Seen")).toBe(false);
  }, 30_000);

  test("an interrupted backfill resumes from mail_backfills at start and skips what was done", async () => {
    const hh = suite.harness();
    const u = await hh.register();
    const day = 24 * 60 * 60 * 1000;
    const first = vine("Done Before The Crash");
    const second = vine("Left For After The Restart");
    const uid1 = await suite.dc.append("flo@example.test", first.raw, {
      date: new Date(Date.now() - day),
    });
    await suite.dc.append("flo@example.test", second.raw, { date: new Date(Date.now() - day) });
    expect((await hh.connect(u.token, "flo@example.test")).status).toBe(200);
    await hh.services.mailbox.manager.stop(u.userid);

    // What a crash leaves behind: a running backfill that got through the first message.
    const c = await suite.dc.client("flo@example.test");
    const box = await c.mailboxOpen("INBOX");
    await c.logout();
    hh.db.$client
      .query(
        "INSERT INTO mail_backfills (user_id, folder, since_date, done_through_uid, uid_validity, status) VALUES (?, 'INBOX', ?, ?, ?, 'running')",
      )
      .run(u.userid, new Date(Date.now() - 7 * day).toISOString(), uid1, Number(box.uidValidity));

    expect(hh.services.mailbox.startAll()).toBe(1);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the resumed backfill");
    await hh.services.mailbox.backfillDone(u.userid);
    expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
      "Left For After The Restart",
    ]);
    expect(hh.ingested.map((i) => i.messageId)).toEqual([second.messageId]);
  }, 15_000);
});

describe("rate limits", () => {
  test("manual reconnect: window budget, then 429 with Retry-After; remainingAttempts reported", async () => {
    const own = await startDovecot({ users: [{ user: "rl@example.test", pass: "rl-pass" }] });
    try {
      const hh = suite.harness(
        {
          mailbox: {
            timings: {
              idleRestartMs: 60_000,
              pollIntervalMs: 300,
              backoffBaseMs: 1_000,
              backoffMaxMs: 1_000,
              stopGraceMs: 2_000,
            },
          },
        },
        own,
      );
      const u = await hh.register();
      expect((await hh.connect(u.token, "rl@example.test")).status).toBe(200);
      await waitFor(async () => (await statusOf(hh, u.token)).body.status === "idle", "IDLE");

      // Idle: nothing to reconnect, and no attempt is spent.
      let r = await call(hh, "POST", "/api/imap/reconnect/manual", { token: u.token });
      expect(r.body as unknown).toEqual({
        success: true,
        message: "The mailbox is already connected",
      });

      await own.down();
      let st = await waitFor(async () => {
        const s = (await statusOf(hh, u.token)).body;
        return s.status === "disconnected" ? s : null;
      }, "disconnected");
      expect(st.manualReconnect).toMatchObject({
        available: true,
        buttonState: "enabled",
        nextAttemptTime: null,
        remainingAttempts: { window: 3, daily: 20 },
      });
      const events = hh.watchEvents(u.userid);
      for (let i = 0; i < 3; i++) {
        await waitFor(
          async () => (await statusOf(hh, u.token)).body.status === "disconnected",
          "disconnected again",
        );
        r = await call(hh, "POST", "/api/imap/reconnect/manual", { token: u.token });
        expect(r.status).toBe(200);
        expect(r.body as unknown).toEqual({ success: true, message: "Reconnecting to Gmail" });
      }
      expect(events.filter((e) => e.table === "MANUAL_RECONNECT").length).toBe(3);
      await waitFor(
        async () => (await statusOf(hh, u.token)).body.status === "disconnected",
        "disconnected again",
      );
      r = await call(hh, "POST", "/api/imap/reconnect/manual", { token: u.token });
      expect(r.status).toBe(429);
      expect(r.body.error).toMatch(/^Too many attempts\. Try again in \d+ minutes?\.$/);
      const retryAfter = Number(r.res.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(800);
      expect(retryAfter).toBeLessThanOrEqual(900);
      st = (await statusOf(hh, u.token)).body;
      expect(st.manualReconnect).toMatchObject({
        available: false,
        buttonState: "cooldown",
        remainingAttempts: { window: 0, daily: 17 },
      });
      expect(Date.parse(st.manualReconnect.nextAttemptTime!)).toBeGreaterThan(Date.now());

      // retry-idle while disconnected is a 409, not a spent attempt.
      r = await call(hh, "POST", "/api/imap/retry-idle", { token: u.token });
      expect(r.status).toBe(409);

      await own.up();
      await waitFor(
        async () => (await statusOf(hh, u.token)).body.status === "idle",
        "automatic reconnect",
        10_000,
      );
      await hh.close();
    } finally {
      await own.stop();
    }
  }, 20_000);
});

describe("disconnect", () => {
  test("stops the supervisor, forgets the secret and the folder state; nothing more is read", async () => {
    const hh = suite.harness();
    const u = await connectedUser(hh, "gil@example.test");
    await suite.dc.append("gil@example.test", vine("Before Disconnect").raw);
    await waitFor(() => ordersOf(hh, u.userid).length === 1, "the order");
    const events = hh.watchEvents(u.userid);

    const r = await call(hh, "POST", "/api/user/disconnect-email", { token: u.token });
    expect(r.status).toBe(200);
    expect(r.body as unknown).toEqual({ success: true, message: "Disconnected" });
    expect(events.some((e) => e.table === "user")).toBe(true);
    expect(hh.services.mailbox.manager.size()).toBe(0);
    const row = hh.db.$client
      .query("SELECT is_connected, secret_enc FROM mailbox_accounts WHERE user_id = ?")
      .get(u.userid) as { is_connected: number; secret_enc: string | null };
    expect(row).toEqual({ is_connected: 0, secret_enc: null });
    const fs = hh.db.$client
      .query("SELECT COUNT(*) AS n FROM mail_folder_state WHERE user_id = ?")
      .get(u.userid) as { n: number };
    expect(fs.n).toBe(0);
    const data = await call<UserData>(hh, "GET", "/api/user/data", { token: u.token });
    expect(data.body.emailSettings).toBeNull();
    expect((await statusOf(hh, u.token)).status).toBe(404);

    // Nothing watches the mailbox any more: no supervisor runs for the user.
    expect(hh.services.mailbox.manager.size()).toBe(0);
    expect(ordersOf(hh, u.userid).length).toBe(1);
    // Disconnecting again is harmless.
    expect((await call(hh, "POST", "/api/user/disconnect-email", { token: u.token })).status).toBe(
      200,
    );
  }, 15_000);

  test("deleting the account stops its supervisor first", async () => {
    const hh = suite.harness();
    const u = await connectedUser(hh, "hap@example.test");
    expect(hh.services.mailbox.manager.size()).toBe(1);
    const r = await call(hh, "DELETE", "/api/user", {
      token: u.token,
      body: { password: u.password },
    });
    expect(r.status).toBe(200);
    expect(hh.services.mailbox.manager.size()).toBe(0);
    expect(hh.ingested.length).toBe(0);
  }, 15_000);
});

describe("secrets at rest and configuration", () => {
  test("AES-256-GCM: round trip, a fresh IV each time, tampering and a wrong key are refused", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "grapevine-secrets-"));
    try {
      const a = createSecrets({ key: null, dataDir: dir });
      const one = a.encrypt("abcd efgh ijkl mnop");
      const two = a.encrypt("abcd efgh ijkl mnop");
      expect(one).not.toBe(two);
      expect(a.decrypt(one)).toBe("abcd efgh ijkl mnop");
      const keyFile = path.join(dir, "secret.key");
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
      // A second start reads the same key file.
      expect(createSecrets({ key: null, dataDir: dir }).decrypt(two)).toBe("abcd efgh ijkl mnop");

      const raw = Buffer.from(one.slice(3), "base64");
      raw[raw.length - 1]! ^= 1;
      expect(() => a.decrypt(`v1:${raw.toString("base64")}`)).toThrow(SecretError);
      const other = createSecrets({ key: crypto.randomBytes(32), dataDir: dir });
      expect(() => other.decrypt(one)).toThrow(SecretError);
      expect(() => a.decrypt("plain text")).toThrow(SecretError);

      fs.writeFileSync(keyFile, "too short\n");
      expect(() => createSecrets({ key: null, dataDir: dir }).ensureKey()).toThrow(/32-byte/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 15_000);

  test("SECRET_KEY and GMAIL_IMAP_* are read and checked; a bad value is one line", () => {
    const key = crypto.randomBytes(32).toString("base64");
    const c = loadConfig({ DATA_DIR: "/tmp/x", SECRET_KEY: key });
    expect(c.secretKey?.toString("base64")).toBe(key);
    expect(c.gmailImap).toEqual({ host: "imap.gmail.com", port: 993, tls: true });
    expect(loadConfig({ DATA_DIR: "/tmp/x" }).secretKey).toBeNull();
    const custom = loadConfig({
      DATA_DIR: "/tmp/x",
      GMAIL_IMAP_HOST: "imap.example.test",
      GMAIL_IMAP_PORT: "1143",
      GMAIL_IMAP_TLS: "false",
    });
    expect(custom.gmailImap).toEqual({ host: "imap.example.test", port: 1143, tls: false });
    for (const [env, msg] of [
      [{ SECRET_KEY: "c2hvcnQ=" }, "SECRET_KEY must be 32 bytes"],
      [{ SECRET_KEY: "not base64!" }, "SECRET_KEY must be 32 bytes"],
      [{ GMAIL_IMAP_PORT: "99999" }, "GMAIL_IMAP_PORT must be a whole number"],
      [{ GMAIL_IMAP_TLS: "maybe" }, "GMAIL_IMAP_TLS must be true or false"],
    ] as const) {
      let err: unknown;
      try {
        loadConfig({ DATA_DIR: "/tmp/x", ...env });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(msg);
      expect((err as Error).message).not.toContain("\n");
    }
  }, 15_000);
});
