/**
 * Re-reading the mailbox after a reader upgrade against a real Dovecot: mail an
 * older reader did not understand is read again from the monitored folder, once per version, at
 * start and when the mailbox connects, through the "Process Old Emails" backfill and the ledger
 * (the mechanism mode-limited mail is read again by). The upgrade is simulated by raising the
 * version the pipeline sees and giving it the newer reader (the services' `mail` override).
 */
import { expect, test } from "bun:test";
import { readAmazonMail } from "../../src/mail/amazon/reader.ts";
import type { MailFacts, MailMessage } from "../../src/mail/amazon/types.ts";
import { dovecotSuite, type ImapHarness, mailUsers, ordersOf } from "../support/imap-suite.ts";
import { waitFor } from "../support/wait.ts";
import { call } from "./helpers.ts";
import { amazonMail } from "./mail-messages.ts";

const suite = dovecotSuite({ users: mailUsers(["rae", "sol"]) });
const DAY = 86_400_000;

const upgrade = { version: 1, reader: (m: MailMessage): MailFacts => readAmazonMail(m) };
/** The newer reader of this test: it reads as 0.00 (Vine) the total today's reader missed. */
const readsTheTotal = (m: MailMessage): MailFacts => {
  const f = readAmazonMail(m);
  return { ...f, orders: f.orders.map((o) => ({ ...o, total: o.total ?? "0.00" })), unread: [] };
};

function harness(): ImapHarness {
  upgrade.version = 1;
  upgrade.reader = (m) => readAmazonMail(m);
  return suite.harness({
    mail: { readerVersion: () => upgrade.version, readAmazonMail: (m) => upgrade.reader(m) },
  });
}

/** A confirmation with no total and no item price: not understood in "Vine orders only". */
const noTotal = (order: string, name: string) =>
  amazonMail({
    kind: "ordered",
    order,
    items: [{ name, asin: "B0NOTOTAL9", price: null }],
    messageId: `m-${order}@amazon.test`,
  });
const vine = (order: string, name: string) =>
  amazonMail({
    kind: "ordered",
    order,
    items: [{ name, asin: "B0VINEIMAP", price: "0.00" }],
    total: "0.00",
    messageId: `m-${order}@amazon.test`,
  });

async function connectAndBackfill(hh: ImapHarness, mailUser: string) {
  const u = await hh.register();
  expect((await hh.connect(u.token, mailUser)).status).toBe(200);
  await waitFor(
    async () =>
      (await call<{ status: string }>(hh, "GET", "/api/imap/status", { token: u.token })).body
        .status === "idle",
    "IDLE",
  );
  const r = await call(hh, "POST", "/api/imap/process-emails", {
    token: u.token,
    body: { daysBack: 30 },
  });
  expect(r.status).toBe(202);
  await hh.services.mailbox.backfillDone(u.userid);
  return u;
}

test("at start after an upgrade, the mail not understood is read again from the folder, once", async () => {
  const hh = harness();
  await suite.dc.append("rae@example.test", vine("115-0000000-0000001", "Understood Lamp"), {
    date: new Date(Date.now() - 2 * DAY),
  });
  await suite.dc.append("rae@example.test", noTotal("115-0000000-0000002", "Puzzling Planter"), {
    date: new Date(Date.now() - 20 * DAY),
  });
  const u = await connectAndBackfill(hh, "rae@example.test");
  expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual(["Understood Lamp"]);
  // Same version at start: nothing to read again, no backfill.
  hh.services.mailbox.startAll();
  expect(hh.db.$client.query("SELECT status FROM mail_backfills").get()).toEqual({
    status: "done",
  });
  const seen = hh.ingested.length;

  upgrade.version = 2;
  upgrade.reader = readsTheTotal;
  hh.services.mailbox.startAll();
  await hh.services.mailbox.backfillDone(u.userid);
  expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual([
    "Understood Lamp",
    "Puzzling Planter",
  ]);
  // The re-scan covered the 20-day-old message (the 30-day period), and counted nothing twice.
  expect(hh.ingested.length).toBe(seen + 2);
  expect(hh.services.mailIngest.stats(u.userid).emailsscanned).toBe(2);
  expect(
    hh.db.$client
      .query("SELECT reader_version, outcome FROM processed_messages WHERE message_key = ?")
      .get("m-115-0000000-0000002@amazon.test"),
  ).toEqual({ reader_version: 2, outcome: "created" });

  // Once per version: the next start reads nothing again.
  hh.services.mailbox.startAll();
  await hh.services.mailbox.backfillDone(u.userid);
  expect(hh.ingested.length).toBe(seen + 2);
}, 30_000);

test("connecting the mailbox after an upgrade reads again what was not understood", async () => {
  const hh = harness();
  await suite.dc.append("sol@example.test", noTotal("115-0000000-0000011", "Odd Ottoman"), {
    date: new Date(Date.now() - 3 * DAY),
  });
  const u = await connectAndBackfill(hh, "sol@example.test");
  expect(ordersOf(hh, u.userid)).toEqual([]);

  upgrade.version = 2;
  upgrade.reader = readsTheTotal;
  expect((await hh.connect(u.token, "sol@example.test")).status).toBe(200);
  await hh.services.mailbox.backfillDone(u.userid);
  expect(ordersOf(hh, u.userid).map((o) => o.productname)).toEqual(["Odd Ottoman"]);
}, 30_000);
