/**
 * Mail arriving over IMAP (real Dovecot) while the database cannot take it (the disk is full:
 * SQLITE_FULL at every ingest) is tried again at every pass and never given up, so it becomes its
 * order once there is room again. (A message that fails for its own reasons is given up after 3
 * passes; a storage fault must not count.)
 */
import { expect, test } from "bun:test";
import {
  connectedUser,
  dovecotSuite,
  vineOrder as mail,
  mailUsers,
  ordersOf,
} from "../support/imap-suite.ts";
import { waitFor } from "../support/wait.ts";

const suite = dovecotSuite({ users: mailUsers(["full"]) });
const USER = "full@example.test";

test("new mail while the database is full: retried at every pass, its order appears once there is room", async () => {
  const hh = suite.harness();
  const u = await connectedUser(hh, USER);

  // The disk is full: every ingest fails with SQLite's SQLITE_FULL (thrown where the harness
  // hands each message to the pipeline, as test/api/imap-backfill.test.ts simulates a locked database).
  let full = true;
  hh.setIngestHook(() => {
    if (full) throw Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
  });
  const passesOver = (messageId: string) =>
    hh.ingested.filter((i) => i.messageId === messageId).length;

  const first = mail("Lamp Kept Through A Full Disk");
  await suite.dc.append(USER, first.raw);
  await waitFor(() => passesOver(first.messageId) >= 1, "the first pass");
  // Each new message is a new pass over everything not yet done, the first one included: more
  // passes than a message failing on its own gets (3), and it is still not given up.
  for (let k = 1; k <= 4; k++) {
    await suite.dc.append(USER, mail(`Later Lamp ${k}`).raw);
    await waitFor(() => passesOver(first.messageId) >= k + 1, `pass ${k + 1}`);
  }
  const orders = () => ordersOf(hh, u.userid);
  expect(orders()).toEqual([]);

  // Space is back: the next mail's pass takes every one of them, in order, once each.
  full = false;
  await suite.dc.append(USER, mail("Lamp After The Disk Was Freed").raw);
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
