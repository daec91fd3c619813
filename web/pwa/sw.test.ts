/**
 * The service worker's handlers (web/pwa/sw.js), run with stand-ins for the worker's globals.
 * A real push through Chromium becoming a notification is e2e/alerts.e2e.ts; tapping a shown
 * notification cannot be done through Chromium's DevTools protocol, so the tap is checked here:
 * it opens (or focuses) this app's page of the order, and never another site.
 */
import { describe, expect, test } from "bun:test";
import fs from "node:fs";
import path from "node:path";

const CODE = fs.readFileSync(path.join(import.meta.dir, "sw.js"), "utf8");
const ORIGIN = "http://grapevine.lan:3000";

type Handler = (event: Record<string, unknown>) => void;
type Window = { url: string; focused: boolean; navigatedTo: string | null };

/** Runs sw.js against a fake `self`; returns its handlers and what they did. */
function worker(windows: Window[] = []) {
  const handlers = new Map<string, Handler>();
  const shown: { title: string; options: Record<string, unknown> }[] = [];
  const opened: string[] = [];
  const self = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, fn: Handler) => handlers.set(type, fn),
    skipWaiting: () => {},
    registration: {
      showNotification: async (title: string, options: Record<string, unknown>) => {
        shown.push({ title, options });
      },
    },
    clients: {
      claim: async () => {},
      openWindow: async (url: string) => {
        opened.push(url);
      },
      matchAll: async () =>
        windows.map((w) => ({
          url: w.url,
          focus: async () => {
            w.focused = true;
          },
          navigate: async (url: string) => {
            w.navigatedTo = url;
          },
        })),
    },
  };
  new Function("self", CODE)(self);
  /** Dispatches an event and waits for what it handed to waitUntil. */
  async function dispatch(type: string, event: Record<string, unknown>) {
    let work: Promise<unknown> = Promise.resolve();
    handlers.get(type)?.({ ...event, waitUntil: (p: Promise<unknown>) => (work = p) });
    await work;
  }
  const push = (data: string | null) =>
    dispatch("push", {
      data: data === null ? null : { json: () => JSON.parse(data), text: () => data },
    });
  const tap = (url: unknown) => {
    const notification = { data: { url }, closed: false, close: () => {} };
    notification.close = () => {
      notification.closed = true;
    };
    return dispatch("notificationclick", { notification }).then(() => notification);
  };
  return { handlers, shown, opened, push, tap };
}

describe("push", () => {
  test("an alert's JSON becomes a notification with its title, text, tag and order link", async () => {
    const w = worker();
    await w.push(
      JSON.stringify({
        title: "Delivered",
        body: "Delivered: Lamp.",
        url: "/orders/7/edit",
        tag: "order-7",
      }),
    );
    expect(w.shown).toEqual([
      {
        title: "Delivered",
        options: {
          body: "Delivered: Lamp.",
          tag: "order-7",
          icon: "/pwa/icon-192.png",
          badge: "/pwa/icon-192.png",
          data: { url: "/orders/7/edit" },
        },
      },
    ]);
  });

  test("a push that is not JSON, or has no title, still shows something readable", async () => {
    const w = worker();
    await w.push("plain words");
    await w.push(JSON.stringify({ body: 42 }));
    await w.push(null);
    expect(w.shown.map((s) => [s.title, s.options.body, s.options.data])).toEqual([
      ["Grapevine", "plain words", { url: "/" }],
      ["Grapevine", "", { url: "/" }],
      ["Grapevine", "", { url: "/" }],
    ]);
  });
});

describe("tapping a notification", () => {
  test("no window open: the order's page opens in a new one", async () => {
    const w = worker();
    const n = await w.tap("/orders/7/edit");
    expect(n.closed).toBe(true);
    expect(w.opened).toEqual([`${ORIGIN}/orders/7/edit`]);
  });

  test("the app already open: that window comes forward and goes to the order", async () => {
    const other: Window = { url: "https://example.com/", focused: false, navigatedTo: null };
    const app: Window = { url: `${ORIGIN}/orders`, focused: false, navigatedTo: null };
    const w = worker([other, app]);
    await w.tap("/orders/9/edit");
    expect(app).toEqual({
      url: `${ORIGIN}/orders`,
      focused: true,
      navigatedTo: `${ORIGIN}/orders/9/edit`,
    });
    expect(other.focused).toBe(false);
    expect(w.opened).toEqual([]);
  });

  test("a link to another site (or none) opens this app, never the other site", async () => {
    const w = worker();
    await w.tap("https://evil.example/steal");
    await w.tap("//evil.example/steal");
    await w.tap(undefined);
    expect(w.opened).toEqual([ORIGIN, ORIGIN, `${ORIGIN}/`]);
  });
});
