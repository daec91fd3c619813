/**
 * What the app reads from the browser it runs in: the stored session token, the network, the
 * window's size and the browser's time zone. In a browser these are the browser's own; the
 * server's render of a first screen (web/server-render.tsx) sets its own for the one render it
 * is doing, so the same components draw the same page there (README, "The first screen").
 */
export type Host = {
  /** The session token (localStorage `auth-token`), or null. */
  token(): string | null;
  /** A same-origin request (`path` starts with `/api/`). */
  fetch(path: string, init: RequestInit): Promise<Response>;
  /** The window's size in CSS pixels. */
  viewport(): { width: number; height: number };
  /** The browser's time zone (IANA name); "UTC" when it cannot be told. */
  timeZone(): string;
};

import { detectBrowserTimeZone } from "./timezone.ts";

export const TOKEN_KEY = "auth-token";

let browserZone: string | undefined;

const browser: Host = {
  token() {
    try {
      return localStorage.getItem(TOKEN_KEY);
    } catch {
      return null;
    }
  },
  fetch: (path, init) => fetch(path, init),
  viewport: () => ({ width: window.innerWidth, height: window.innerHeight }),
  timeZone() {
    // Asked for by every card on every render: Intl answers it slowly on a phone, and it does not
    // change while the page is open.
    browserZone ??= detectBrowserTimeZone();
    return browserZone;
  },
};

let current: Host = browser;

/** The host the app runs in now. */
export const host = (): Host => current;

/** Runs `work` with another host (the server's render); the browser's again once it settles. */
export async function withHost<T>(other: Host, work: () => Promise<T>): Promise<T> {
  current = other;
  try {
    return await work();
  } finally {
    current = browser;
  }
}
