/**
 * /api/imap/* and POST /api/user/disconnect-email against a real Dovecot standing in for Gmail
 * (test/support/dovecot.ts): app-password connect, status, folders, rate limits, disconnect.
 * "Process Old Emails" is in imap-backfill.test.ts, the secrets at rest in secrets.test.ts.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";
import type { MailboxStatus, MailFolder, UserData } from "../../src/contract/index.ts";
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

const suite = dovecotSuite({ users: mailUsers(["amy", "bob", "cal", "gil", "hap"]) });

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
      code: "app_password_refused",
      values: {},
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
    expect(events.some((e) => e.type === "mailbox.connected")).toBe(true);

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
      lastErrorCode: null,
      folder: "INBOX",
      emailsScanned: 0,
      lastProcessedTime: null,
      manualReconnect: {
        available: false,
        buttonState: "hidden",
        message: "Not needed right now",
        messageCode: "mailbox.server.action.notNeeded",
      },
      idleRetry: { available: false, buttonState: "hidden" },
    });
    expect(events.some((e) => e.type === "mailbox.status")).toBe(true);

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
    const folderEvents = hh.watchEvents(u.userid);
    const refreshed = await call<MailFolder[]>(hh, "POST", "/api/imap/folders/refresh", {
      token: u.token,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.body.some((f) => f.path === "Amazon Done")).toBe(true);
    expect(folderEvents.map((e) => e.type)).toContain("mail-folders.updated");

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
    expect(events.some((e) => e.type === "mailbox-settings.updated")).toBe(true);
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
      expect(events.filter((e) => e.type === "mailbox-attempts.updated").length).toBe(3);
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
    expect(events.some((e) => e.type === "mailbox.disconnected")).toBe(true);
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
