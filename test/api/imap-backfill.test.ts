/**
 * "Process Old Emails" (POST /api/imap/process-emails) against a real Dovecot standing in for
 * Gmail: the period, nothing but Amazon's mail fetched, mark-as-read and move only after commit,
 * batches, failures in order, and a backfill resumed after a restart.
 */
import { describe, expect, test } from "bun:test";
import {
  dovecotSuite,
  mailboxStatus,
  mailUsers,
  ordersOf,
  vineOrder as vine,
} from "../support/imap-suite.ts";
import { waitFor } from "../support/wait.ts";
import { call } from "./helpers.ts";
import { plainMail } from "./mail-messages.ts";

const suite = dovecotSuite({ users: mailUsers(["deb", "eli", "flo", "mia"]) });

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
    await waitFor(async () => (await mailboxStatus(hh, u.token)).status === "idle", "IDLE");
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
    expect(events.some((e) => e.type === "mailbox.scanning")).toBe(true);
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
    expect((await mailboxStatus(hh, u.token)).emailsScanned).toBe(3);

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
