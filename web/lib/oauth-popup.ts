/**
 * The Gmail authorization window (docs/behaviour.md#states-and-transitions Email connection): a 500x600 popup centred on the
 * screen, polled every second until it closes. When the browser blocks the popup, the current page
 * navigates to the authorization address instead (the callback brings the user back to
 * /account?oauth=success|error).
 *
 * The callback lands in the popup itself; the app there (AccountPage) finds the pending mark the
 * opener left, announces the result on a BroadcastChannel and closes itself (see below).
 */

export const OAUTH_POPUP_WIDTH = 500;
export const OAUTH_POPUP_HEIGHT = 600;
export const OAUTH_POLL_MS = 1000;
/** window.name of the popup: how the page at the callback address knows it is the popup. */
export const OAUTH_WINDOW_NAME = "grapevine-gmail-oauth";
export const OAUTH_MESSAGE_TYPE = "grapevine:oauth";

export type OAuthResult = "success" | "error";

/** The parts of `window.screen` (and the window's own position) the centring needs. */
export type ScreenBox = {
  /** screen.availWidth (or width) */
  width: number;
  height: number;
  /** The left/top of the screen the window is on (multi-monitor: window.screenX - offset). */
  left?: number;
  top?: number;
};

/** The window.open features string of a width x height popup centred on the screen. */
export function popupFeatures(
  screen: ScreenBox,
  width = OAUTH_POPUP_WIDTH,
  height = OAUTH_POPUP_HEIGHT,
): string {
  const left = Math.max(0, Math.round((screen.left ?? 0) + (screen.width - width) / 2));
  const top = Math.max(0, Math.round((screen.top ?? 0) + (screen.height - height) / 2));
  return [
    `width=${width}`,
    `height=${height}`,
    `left=${left}`,
    `top=${top}`,
    "toolbar=no",
    "menubar=no",
    "location=yes",
    "status=no",
    "resizable=yes",
    "scrollbars=yes",
  ].join(",");
}

/** The screen box of a real window: the available area of the screen it is on. */
export function screenBoxOf(win: Pick<Window, "screen">): ScreenBox {
  const s = win.screen as Screen & { availLeft?: number; availTop?: number };
  return {
    width: s.availWidth || s.width,
    height: s.availHeight || s.height,
    left: s.availLeft ?? 0,
    top: s.availTop ?? 0,
  };
}

/** What openOAuthPopup needs of `window` (a fake in tests). */
export type PopupHost = {
  open: (url: string, target: string, features: string) => { closed: boolean } | null;
  location: { assign: (url: string) => void };
  screen: ScreenBox;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (id: never) => void;
};

export type PopupOutcome =
  /** The popup is open; `cancel` stops watching it. */
  | { kind: "popup"; cancel: () => void }
  /** The popup was blocked: the page is navigating to the authorization address. */
  | { kind: "navigated" };

/**
 * Opens the authorization address in a centred popup and calls `onClosed` once it has closed
 * (checked every `pollMs`). Falls back to navigating the current page when window.open is refused.
 */
export function openOAuthPopup(
  url: string,
  opts: {
    onClosed: () => void;
    host?: PopupHost;
    pollMs?: number;
    /** Where the pending mark goes (localStorage by default). */
    store?: KeyValueStore | null;
  },
): PopupOutcome {
  const host = opts.host ?? browserHost();
  const store = opts.store === undefined ? safeStorage() : opts.store;
  let popup: { closed: boolean } | null = null;
  try {
    popup = host.open(url, OAUTH_WINDOW_NAME, popupFeatures(host.screen));
  } catch {
    popup = null;
  }
  if (!popup) {
    clearOAuthPending(store);
    host.location.assign(url);
    return { kind: "navigated" };
  }
  markOAuthPending(store);
  const watched = popup;
  let done = false;
  const id = host.setInterval(() => {
    let closed = true;
    try {
      closed = watched.closed;
    } catch {
      // A cross-origin window can still be asked for .closed; if even that fails, stop watching.
    }
    if (!closed || done) return;
    done = true;
    host.clearInterval(id as never);
    opts.onClosed();
  }, opts.pollMs ?? OAUTH_POLL_MS);
  return {
    kind: "popup",
    cancel: () => {
      done = true;
      host.clearInterval(id as never);
    },
  };
}

function browserHost(): PopupHost {
  return {
    open: (url, target, features) => window.open(url, target, features),
    location: { assign: (url) => window.location.assign(url) },
    screen: screenBoxOf(window),
    setInterval: (fn, ms) => window.setInterval(fn, ms),
    clearInterval: (id) => window.clearInterval(id),
  };
}

/** oauth=success|error from a query string ("?a=1&oauth=success"); null when absent or other. */
export function readOAuthResult(search: string): OAuthResult | null {
  const v = new URLSearchParams(search).get("oauth");
  return v === "success" || v === "error" ? v : null;
}

/** The address without its oauth parameter (path, remaining query and hash kept). */
export function withoutOAuthParam(href: string): string {
  const u = new URL(href, "http://localhost");
  u.searchParams.delete("oauth");
  const q = u.searchParams.toString();
  return `${u.pathname}${q ? `?${q}` : ""}${u.hash}`;
}

/* ------------------------------------------------------------------------------------------------
 * Hand-over from the popup to the page that opened it.
 *
 * Google's pages cut the popup off from its opener (Cross-Origin-Opener-Policy), so when the
 * callback brings the popup back to /account?oauth=..., window.opener is usually null and the
 * opener may even see the popup as closed early. Two same-origin channels do not depend on that:
 * a "pending" mark in localStorage (set by the opener when the popup opened: the page at the
 * callback address is the popup) and a BroadcastChannel for the result.
 * --------------------------------------------------------------------------------------------- */

export const OAUTH_PENDING_KEY = "grapevine-oauth-pending";
export const OAUTH_CHANNEL = "grapevine-oauth";
/** A pending mark older than this is ignored (an abandoned attempt). */
export const OAUTH_PENDING_MAX_MS = 15 * 60_000;

type KeyValueStore = Pick<Storage, "getItem" | "setItem" | "removeItem">;

function safeStorage(): KeyValueStore | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The opener: a popup is now on its way to Google. */
export function markOAuthPending(store = safeStorage(), now = Date.now()): void {
  try {
    store?.setItem(OAUTH_PENDING_KEY, String(now));
  } catch {
    // storage unavailable: the popup then simply shows its own toast
  }
}

export function clearOAuthPending(store = safeStorage()): void {
  try {
    store?.removeItem(OAUTH_PENDING_KEY);
  } catch {
    // nothing stored
  }
}

/** The page at the callback address: true (and the mark is consumed) when it is the popup. */
export function takeOAuthPending(store = safeStorage(), now = Date.now()): boolean {
  let raw: string | null = null;
  try {
    raw = store?.getItem(OAUTH_PENDING_KEY) ?? null;
  } catch {
    return false;
  }
  if (raw === null) return false;
  clearOAuthPending(store);
  const at = Number(raw);
  return Number.isFinite(at) && now - at >= 0 && now - at <= OAUTH_PENDING_MAX_MS;
}

type Channel = {
  postMessage: (msg: unknown) => void;
  close: () => void;
  onmessage: ((e: { data: unknown }) => void) | null;
};
const openChannel = (): Channel | null =>
  typeof BroadcastChannel === "undefined"
    ? null
    : (new BroadcastChannel(OAUTH_CHANNEL) as unknown as Channel);

/** The popup: tells every page of this app the result, then tries to close itself. */
export function announceOAuthResult(
  result: OAuthResult,
  opts: { channel?: Channel | null; close?: () => void } = {},
): void {
  const channel = opts.channel === undefined ? openChannel() : opts.channel;
  try {
    channel?.postMessage({ type: OAUTH_MESSAGE_TYPE, result });
  } finally {
    channel?.close();
  }
  (opts.close ?? (() => window.close()))();
}

/** The result a message carries, or null when it is not ours. */
export function oauthMessageResult(data: unknown): OAuthResult | null {
  const d = data as { type?: unknown; result?: unknown } | null;
  if (!d || typeof d !== "object" || d.type !== OAUTH_MESSAGE_TYPE) return null;
  return d.result === "success" || d.result === "error" ? d.result : null;
}

/** The opener: calls `fn` with each result a popup announces. Returns the unsubscribe. */
export function listenForOAuthResult(
  fn: (result: OAuthResult) => void,
  channel: Channel | null = openChannel(),
): () => void {
  if (!channel) return () => {};
  channel.onmessage = (e) => {
    const result = oauthMessageResult(e.data);
    if (result) fn(result);
  };
  return () => {
    channel.onmessage = null;
    channel.close();
  };
}
