/**
 * Mail arriving over IMAP (real Dovecot) while the database cannot take it (the disk is full:
 * SQLITE_FULL at every ingest) is tried again at every pass and never given up, so it becomes its
 * order once there is room again. (A message that fails for its own reasons is given up after 3
 * passes; a storage fault must not count.)
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { MailboxStatus, Order } from "../../src/contract/index.ts";
import { call } from "../api/helpers.ts";
import { amazonMail } from "../api/mail-messages.ts";
import {
  createImapHarness,
  type Dovecot,
  type ImapHarness,
  startDovecot,
} from "../support/dovecot.ts";
import { waitFor } from "../support/wait.ts";

const USER = { user: "full@example.test", pass: "app-pass-full" };
let dc: Dovecot;
let h: ImapHarness | null = null;
beforeAll(async () => {
  dc = await startDovecot({ users: [USER] });
}, 15_000);
afterAll(async () => {
  await h?.close();
  await dc?.stop();
}, 15_000);

test("new mail while the database is full: retried at every pass, its order appears once there is room", async () => {
  h = createImapHarness(dc);
  const hh = h;
  const u = await hh.register();
  expect((await hh.connect(u.token, USER.user)).status).toBe(200);
  await waitFor(
    async () =>
      (await call<MailboxStatus>(hh, "GET", "/api/imap/status", { token: u.token })).body.status ===
      "idle",
    "IDLE",
  );

  // The disk is full: every ingest fails with SQLite's SQLITE_FULL (thrown where the harness
  // hands each message to the pipeline, as test/api/imap.test.ts simulates a locked database).
  let full = true;
  hh.setIngestHook(() => {
    if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  });
  let seq = 900;
  const mail = (name: string) => {
    seq++;
    const order = `114-0000${seq}-000${seq * 3}`;
    const messageId = `m-${order}@amazon.test`;
    const raw = amazonMail({
      kind: "ordered",
      order,
      items: [{ name, asin: `B100000${seq}`, price: "0.00" }],
      total: "0.00",
      messageId,
    });
    return { messageId, raw };
  };
  const passesOver = (messageId: string) =>
    hh.ingested.filter((i) => i.messageId === messageId).length;

  const first = mail("Lamp Kept Through A Full Disk");
  await dc.append(USER.user, first.raw);
  await waitFor(() => passesOver(first.messageId) >= 1, "the first pass");
  // Each new message is a new pass over everything not yet done, the first one included: more
  // passes than a message failing on its own gets (3), and it is still not given up.
  for (let k = 1; k <= 4; k++) {
    await dc.append(USER.user, mail(`Later Lamp ${k}`).raw);
    await waitFor(() => passesOver(first.messageId) >= k + 1, `pass ${k + 1}`);
  }
  const orders = (): Order[] =>
    hh.services.orders.list(u.userid, {
      status: "all",
      q: "",
      sort: "oldest",
      limit: 50,
      offset: 0,
    }).orders;
  expect(orders()).toEqual([]);

  // Space is back: the next mail's pass takes every one of them, in order, once each.
  full = false;
  await dc.append(USER.user, mail("Lamp After The Disk Was Freed").raw);
  await waitFor(() => orders().length === 6, "the six orders once there is room", 20_000);
  expect(orders().map((o) => o.productname)).toEqual([
    "Lamp Kept Through A Full Disk",
    "Later Lamp 1",
    "Later Lamp 2",
    "Later Lamp 3",
    "Later Lamp 4",
    "Lamp After The Disk Was Freed",
  ]);
}, 60_000);
