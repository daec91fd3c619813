import { describe, expect, test } from "bun:test";
import {
  announceOAuthResult,
  listenForOAuthResult,
  OAUTH_MESSAGE_TYPE,
  OAUTH_PENDING_KEY,
  OAUTH_PENDING_MAX_MS,
  OAUTH_POLL_MS,
  OAUTH_WINDOW_NAME,
  oauthMessageResult,
  openOAuthPopup,
  type PopupHost,
  popupFeatures,
  readOAuthResult,
  takeOAuthPending,
  withoutOAuthParam,
} from "./oauth-popup.ts";

const features = (s: string) =>
  Object.fromEntries(s.split(",").map((kv) => kv.split("=") as [string, string]));

function memoryStore(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return {
    map: m,
    getItem: (k: string) => m.get(k) ?? null,
    setItem: (k: string, v: string) => void m.set(k, v),
    removeItem: (k: string) => void m.delete(k),
  };
}

/** A fake window: records open/assign calls and runs intervals by hand. */
function fakeHost(
  popup: { closed: boolean } | null | "throws",
  screen = { width: 1920, height: 1080 },
) {
  const calls = { open: [] as [string, string, string][], assign: [] as string[] };
  const intervals = new Map<number, { fn: () => void; ms: number }>();
  let nextId = 1;
  const host: PopupHost = {
    open: (url, target, feats) => {
      calls.open.push([url, target, feats]);
      if (popup === "throws") throw new Error("blocked");
      return popup;
    },
    location: { assign: (url) => void calls.assign.push(url) },
    screen,
    setInterval: (fn, ms) => {
      const id = nextId++;
      intervals.set(id, { fn, ms });
      return id;
    },
    clearInterval: (id) => void intervals.delete(id as unknown as number),
  };
  const tick = () => {
    for (const i of [...intervals.values()]) i.fn();
  };
  return { host, calls, intervals, tick };
}

describe("popupFeatures", () => {
  test("a 500x600 popup centred on a 1920x1080 screen", () => {
    const f = features(popupFeatures({ width: 1920, height: 1080 }));
    expect(f.width).toBe("500");
    expect(f.height).toBe("600");
    expect(f.left).toBe("710"); // (1920 - 500) / 2
    expect(f.top).toBe("240"); // (1080 - 600) / 2
  });

  test("centred on the screen the window is on (offset of a second monitor)", () => {
    const f = features(popupFeatures({ width: 1280, height: 800, left: 1920, top: 0 }));
    expect(f.left).toBe(String(1920 + 390));
    expect(f.top).toBe("100");
  });

  test("odd sizes round; a screen smaller than the popup never gives negative positions", () => {
    expect(features(popupFeatures({ width: 1367, height: 769 })).left).toBe("434");
    const small = features(popupFeatures({ width: 390, height: 500 }));
    expect(small.left).toBe("0");
    expect(small.top).toBe("0");
    expect(small.width).toBe("500");
  });
});

describe("openOAuthPopup", () => {
  test("opens the address in the named, centred popup and polls it every second", () => {
    const popup = { closed: false };
    const { host, calls, intervals, tick } = fakeHost(popup, { width: 1440, height: 900 });
    const store = memoryStore();
    let closed = 0;
    const out = openOAuthPopup("https://accounts.example/auth?x=1", {
      host,
      store,
      onClosed: () => closed++,
    });
    expect(out.kind).toBe("popup");
    expect(calls.open).toHaveLength(1);
    const [url, target, feats] = calls.open[0]!;
    expect(url).toBe("https://accounts.example/auth?x=1");
    expect(target).toBe(OAUTH_WINDOW_NAME);
    expect(features(feats)).toMatchObject({ width: "500", height: "600", left: "470", top: "150" });
    expect(calls.assign).toEqual([]);
    expect([...intervals.values()].map((i) => i.ms)).toEqual([OAUTH_POLL_MS]);
    expect(OAUTH_POLL_MS).toBe(1000);
    expect(store.map.has(OAUTH_PENDING_KEY)).toBe(true);

    tick();
    tick();
    expect(closed).toBe(0);
    popup.closed = true;
    tick();
    expect(closed).toBe(1);
    expect(intervals.size).toBe(0);
    tick();
    expect(closed).toBe(1);
  });

  test("navigates the current page when window.open returns null (popup blocked)", () => {
    const { host, calls, intervals } = fakeHost(null);
    const store = memoryStore({ [OAUTH_PENDING_KEY]: String(Date.now()) });
    let closed = 0;
    const out = openOAuthPopup("https://accounts.example/auth", {
      host,
      store,
      onClosed: () => closed++,
    });
    expect(out).toEqual({ kind: "navigated" });
    expect(calls.assign).toEqual(["https://accounts.example/auth"]);
    expect(intervals.size).toBe(0);
    expect(closed).toBe(0);
    // The page that comes back from the callback is not a popup.
    expect(store.map.has(OAUTH_PENDING_KEY)).toBe(false);
  });

  test("navigates too when window.open throws", () => {
    const { host, calls } = fakeHost("throws");
    expect(openOAuthPopup("https://a.example/", { host, store: null, onClosed: () => {} })).toEqual(
      {
        kind: "navigated",
      },
    );
    expect(calls.assign).toEqual(["https://a.example/"]);
  });

  test("cancel stops watching", () => {
    const popup = { closed: false };
    const { host, intervals, tick } = fakeHost(popup);
    let closed = 0;
    const out = openOAuthPopup("u", { host, store: null, onClosed: () => closed++ });
    if (out.kind !== "popup") throw new Error("expected a popup");
    out.cancel();
    popup.closed = true;
    tick();
    expect(closed).toBe(0);
    expect(intervals.size).toBe(0);
  });
});

describe("oauth query parameter", () => {
  test("reads success and error only", () => {
    expect(readOAuthResult("?oauth=success")).toBe("success");
    expect(readOAuthResult("tab=email&oauth=error")).toBe("error");
    expect(readOAuthResult("?oauth=maybe")).toBeNull();
    expect(readOAuthResult("")).toBeNull();
  });

  test("removes only the oauth parameter from the address", () => {
    expect(withoutOAuthParam("/account?oauth=success")).toBe("/account");
    expect(withoutOAuthParam("/account?tab=email&oauth=error#x")).toBe("/account?tab=email#x");
    expect(withoutOAuthParam("http://h:1/account?oauth=error&a=1")).toBe("/account?a=1");
  });
});

describe("hand-over from the popup", () => {
  test("the pending mark tells the callback page it is the popup, once, and expires", () => {
    const now = 1_000_000_000;
    const store = memoryStore({ [OAUTH_PENDING_KEY]: String(now - 1000) });
    expect(takeOAuthPending(store, now)).toBe(true);
    expect(takeOAuthPending(store, now)).toBe(false);
    store.setItem(OAUTH_PENDING_KEY, String(now - OAUTH_PENDING_MAX_MS - 1));
    expect(takeOAuthPending(store, now)).toBe(false);
    expect(store.map.has(OAUTH_PENDING_KEY)).toBe(false);
    store.setItem(OAUTH_PENDING_KEY, "garbage");
    expect(takeOAuthPending(store, now)).toBe(false);
  });

  test("messages: only ours, with a known result", () => {
    expect(oauthMessageResult({ type: OAUTH_MESSAGE_TYPE, result: "success" })).toBe("success");
    expect(oauthMessageResult({ type: OAUTH_MESSAGE_TYPE, result: "error" })).toBe("error");
    expect(oauthMessageResult({ type: "other", result: "success" })).toBeNull();
    expect(oauthMessageResult({ type: OAUTH_MESSAGE_TYPE, result: "x" })).toBeNull();
    expect(oauthMessageResult(null)).toBeNull();
    expect(oauthMessageResult("success")).toBeNull();
  });

  test("announce posts the result and closes the popup; the opener hears it", () => {
    type Msg = { data: unknown };
    const listeners: ((e: Msg) => void)[] = [];
    const mk = () => {
      const ch = {
        onmessage: null as ((e: Msg) => void) | null,
        closed: false,
        postMessage: (data: unknown) => {
          for (const l of listeners) l({ data });
        },
        close: () => {
          ch.closed = true;
        },
      };
      listeners.push((e) => ch.onmessage?.(e));
      return ch;
    };
    const openerChannel = mk();
    const heard: string[] = [];
    const stop = listenForOAuthResult((r) => heard.push(r), openerChannel);
    let windowClosed = false;
    const popupChannel = mk();
    announceOAuthResult("success", { channel: popupChannel, close: () => (windowClosed = true) });
    expect(heard).toEqual(["success"]);
    expect(windowClosed).toBe(true);
    expect(popupChannel.closed).toBe(true);
    stop();
    expect(openerChannel.closed).toBe(true);
  });
});
