/**
 * The server's words in the receiving user's language (docs/i18n.md, `server.*` ids): a review
 * reminder in the bell and on the user's ntfy channel (the local fake of test/support/fake-alerts.ts),
 * a channel's test alert, webhooks (their machine fields unchanged), and old notifications
 * following a change of language. The real app
 * (test/harness.ts); the reminders run on a fixed `now`.
 */
import { afterAll, afterEach, beforeAll, expect, test } from "bun:test";
import type { AlertChannel, Notification } from "../../src/contract/index.ts";
import { html } from "../../src/features/notifications/html.ts";
import { createRemindersRepo } from "../../src/features/reminders/reminders.repo.ts";
import { runReviewReminders } from "../../src/features/reminders/reminders.service.ts";
import { deliveredNotice } from "../../src/features/tracking/tracking.messages.ts";
import { createHarness, type Harness } from "../harness.ts";
import { type FakeAlerts, startFakeAlerts } from "../support/fake-alerts.ts";
import { seedOrder } from "../support/seed-orders.ts";

let fake: FakeAlerts;
beforeAll(() => {
  fake = startFakeAlerts();
});
afterAll(() => fake.stop());

const START = new Date("2026-03-10T12:00:00Z");
let clock = START;
const open: Harness[] = [];
function harness() {
  const h = createHarness(
    { PUBLIC_URL: "http://grapevine.local:3000", ALERTS_ALLOW_LOOPBACK: "true" },
    { alerts: { now: () => clock, timeoutMs: 2_000 } },
  );
  open.push(h);
  return h;
}
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  fake.requests.length = 0;
  clock = START;
});

/** A user in `language` (none saved: null) with an ntfy channel for review reminders. */
async function reviewer(h: Harness, language: string | null) {
  const u = await h.register();
  if (language) {
    const res = await h.req("PUT", "/api/user/language", { token: u.token, body: { language } });
    expect(res.status).toBe(200);
  }
  const res = await h.req("POST", "/api/user/alert-channels", {
    token: u.token,
    body: {
      type: "ntfy",
      serverUrl: fake.url,
      topic: `reviews-${language ?? "none"}`,
      events: ["review_due", "review_overdue"],
    },
  });
  expect(res.status).toBe(201);
  const channel = (await res.json()) as AlertChannel;
  // Delivered 18 days before the clock: a "review due" reminder.
  const orderId = seedOrder(h.db, u.userid, {
    product_name: "Garden Hose <50 m> & Reel",
    status: "Received",
    date_delivered: "2026-02-20T10:00:00.000Z",
  });
  return { ...u, orderId, channel };
}

const bell = async (h: Harness, token: string) =>
  (await (await h.req("GET", "/api/notifications", { token })).json()) as Notification[];

/** Runs the reminders and waits for the one ntfy request they cause. */
async function remind(h: Harness) {
  h.services.alerts.start();
  const result = runReviewReminders(
    { reminders: createRemindersRepo(h.db), notifications: h.services.notifications },
    clock,
  );
  expect(result.sent).toBe(1);
  const [sent] = await fake.received(1);
  return sent?.json as { title: string; message: string; click: string };
}

const link = (orderId: number) => `/orders/${orderId}/edit?from=/&amp;section=review`;

test("a German user's review reminder is German, in the bell and on ntfy", async () => {
  const h = harness();
  const u = await reviewer(h, "de");
  const ntfy = await remind(h);
  const [note] = await bell(h, u.token);
  expect(note?.message).toBe(
    `Rezension fällig: <strong>Garden Hose &lt;50 m&gt; &amp; Reel</strong> wurde vor 18 Tagen zugestellt. <a href="${link(u.orderId)}">Rezension schreiben</a>`,
  );
  expect(ntfy).toMatchObject({
    topic: "reviews-de",
    title: "Rezension fällig",
    message: "Rezension fällig: Garden Hose <50 m> & Reel wurde vor 18 Tagen zugestellt.",
    click: `http://grapevine.local:3000/orders/${u.orderId}/edit`,
  });
});

test("a Japanese user's review reminder is Japanese, in the bell and on ntfy", async () => {
  const h = harness();
  const u = await reviewer(h, "ja");
  const ntfy = await remind(h);
  const [note] = await bell(h, u.token);
  expect(note?.message).toBe(
    `レビューの期限: <strong>Garden Hose &lt;50 m&gt; &amp; Reel</strong> は 18日前に配達されました。<a href="${link(u.orderId)}">レビューを書く</a>`,
  );
  expect(ntfy).toMatchObject({
    title: "レビューの期限",
    message: "レビューの期限: Garden Hose <50 m> & Reel は 18日前に配達されました。",
  });
});

test("a user with no language saved gets the English reminder, word for word", async () => {
  const h = harness();
  const u = await reviewer(h, null);
  const ntfy = await remind(h);
  const [note] = await bell(h, u.token);
  expect(note?.message).toBe(
    `Review due: <strong>Garden Hose &lt;50 m&gt; &amp; Reel</strong> was delivered 18 days ago. <a href="${link(u.orderId)}">Write the review</a>`,
  );
  expect(ntfy).toMatchObject({
    title: "Review due",
    message: "Review due: Garden Hose <50 m> & Reel was delivered 18 days ago.",
  });
});

test("switching language shows the old notifications in the new one", async () => {
  const h = harness();
  const u = await reviewer(h, "de");
  await remind(h);
  expect((await bell(h, u.token))[0]?.message).toStartWith("Rezension fällig:");
  for (const [language, start] of [
    ["fr", "Commentaire à écrire : <strong>Garden Hose"],
    ["en", "Review due: <strong>Garden Hose"],
  ] as const) {
    const res = await h.req("PUT", "/api/user/language", { token: u.token, body: { language } });
    expect(res.status).toBe(200);
    expect((await bell(h, u.token))[0]?.message).toStartWith(start);
  }
  // The export reads them in the account's language too.
  const exported = (await (await h.req("GET", "/api/user/export", { token: u.token })).json()) as {
    notifications: Notification[];
  };
  expect(exported.notifications[0]?.message).toStartWith("Review due: <strong>Garden Hose");
});

test("a channel's test alert is in its user's language", async () => {
  const h = harness();
  const de = await reviewer(h, "de");
  const ja = await reviewer(h, "ja");
  for (const u of [de, ja]) {
    const res = await h.req("POST", `/api/user/alert-channels/${u.channel.id}/test`, {
      token: u.token,
    });
    expect(await res.json()).toEqual({ ok: true });
  }
  const [first, second] = await fake.received(2);
  expect(first?.json).toMatchObject({
    topic: "reviews-de",
    title: "Grapevine-Testmeldung",
    message: `Meldungen von Grapevine erreichen diesen Kanal (${de.channel.name}).`,
  });
  expect(second?.json).toMatchObject({
    topic: "reviews-ja",
    title: "Grapevine テスト通知",
    message: `Grapevine からの通知はこのチャンネル（${ja.channel.name}）に届きます。`,
  });
});

test("webhooks carry the text in the user's language and their machine fields unchanged", async () => {
  const h = harness();
  const u = await reviewer(h, "de");
  for (const format of ["json", "discord", "slack"]) {
    const res = await h.req("POST", "/api/user/alert-channels", {
      token: u.token,
      body: { type: "webhook", url: `${fake.url}/hook/${format}`, format, events: ["delivered"] },
    });
    expect(res.status).toBe(201);
  }
  h.services.alerts.start();
  h.services.notifications.notify(
    u.userid,
    "information",
    deliveredNotice([{ id: u.orderId, name: "Garden Hose", details: null }]),
    { event: "delivered", orderId: u.orderId },
  );
  const reqs = await fake.received(3);
  const by = (p: string) => reqs.find((r) => r.path === p)?.json;
  const url = `http://grapevine.local:3000/orders/${u.orderId}/edit`;
  expect(by("/hook/json")).toMatchObject({
    event: "delivered",
    title: "Zugestellt",
    message: "Zugestellt: Garden Hose.",
    url,
    order: { product: "Garden Hose <50 m> & Reel", status: "Received" },
  });
  expect(by("/hook/discord")).toMatchObject({
    content: "Zugestellt",
    embeds: [{ fields: [{ name: "Bestellung" }, { name: "Status", value: "Received" }] }],
  });
  expect(by("/hook/slack")).toMatchObject({
    text: "Zugestellt: Zugestellt: Garden Hose.",
    blocks: [{}, { elements: [{ text: `<${url}|In Grapevine öffnen>` }] }],
  });
});

test("a channel paused after a day of failures is told in the bell in the user's language", async () => {
  const h = harness();
  const u = await reviewer(h, "de");
  const res = await h.req("POST", "/api/user/alert-channels", {
    token: u.token,
    body: { type: "webhook", url: `${fake.url}/hook/p`, format: "json", events: ["shipped"] },
  });
  const channel = (await res.json()) as AlertChannel;
  h.services.alerts.start();
  fake.script("/hook/p", { status: 400 }, { status: 400 });
  h.services.notifications.notify(u.userid, "information", html`Shipped`, { event: "shipped" });
  await fake.received(1);
  await h.services.alerts.idle();
  clock = new Date(START.getTime() + 24 * 3600_000 + 1000);
  h.services.notifications.notify(u.userid, "information", html`Shipped`, { event: "shipped" });
  await fake.received(2);
  await h.services.alerts.idle();
  const [note] = await bell(h, u.token);
  expect(note?.message).toBe(
    `Benachrichtigungen an <strong>${channel.name}</strong> sind pausiert: Einen Tag lang konnte keine Benachrichtigung zugestellt werden; die letzte Antwort war: Der Webhook antwortete 400 (die Benachrichtigung wurde nicht angenommen). Prüfen Sie den Kanal unter Kontoeinstellungen → Benachrichtigungen und speichern Sie ihn, um fortzufahren.`,
  );
});
