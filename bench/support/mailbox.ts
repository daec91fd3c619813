/**
 * A connected Gmail mailbox for the server benchmarks, against the real Dovecot of the tests
 * (test/support/dovecot.ts): the user registers and connects with an app password over the HTTP
 * API, as a person does in Account → Email, and the benchmark waits until the mailbox idles.
 */
import fs from "node:fs";
import { type Dovecot, startDovecot } from "../../test/support/dovecot.ts";
import { waitFor } from "../../test/support/wait.ts";

export const MAIL_USER = "bench@example.test";
export const MAIL_PASS = "bench-app-pass";

export { DOVECOT_BIN, DOVECOT_INSTALL } from "../../test/support/dovecot.ts";

/** Offers COMPRESS=DEFLATE, as Gmail does (Grapevine does not turn it on: README "Memory"). */
export function startBenchDovecot(): Promise<Dovecot> {
  return startDovecot({ users: [{ user: MAIL_USER, pass: MAIL_PASS }], compress: true });
}

/**
 * Resolves once Dovecot's imap process for the bench user is in IDLE, seen from Dovecot's side
 * (its process title, test/support/dovecot.ts sets verbose_proctitle): nothing is asked of the
 * server, which is left alone as a home server is with no browser open.
 */
export async function waitForDovecotIdle(dc: Dovecot, timeoutMs = 60_000) {
  /** A child of this Dovecot (other benches may run their own) titled "…/imap [user ip IDLE]". */
  const idling = () =>
    fs.readdirSync("/proc").some((pid) => {
      if (!/^\d+$/.test(pid)) return false;
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
        const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        const title = fs.readFileSync(`/proc/${pid}/cmdline`, "utf8");
        return (
          ppid === dc.pid() && title.includes(`/imap [${MAIL_USER} `) && title.includes(" IDLE]")
        );
      } catch {
        return false; // the process ended
      }
    });
  await waitFor(idling, "Dovecot to see the mailbox in IDLE", timeoutMs, 50);
}

/** What the server needs to reach that Dovecot as if it were Gmail. */
export function imapEnv(dc: Dovecot): Record<string, string> {
  return {
    GMAIL_IMAP_HOST: "127.0.0.1",
    GMAIL_IMAP_PORT: String(dc.port),
    GMAIL_IMAP_TLS: "false",
  };
}

/** A JSON request of the bench user (`token`); throws on a non-2xx answer. */
export async function call(
  base: string,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${url} answered ${res.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** Registers the bench user; returns their session token. */
export async function registerUser(base: string): Promise<string> {
  const r = await call(base, "POST", "/api/auth/register", undefined, {
    email: MAIL_USER,
    password: "benchpass1",
    displayname: "Bench",
  });
  return String(r.token);
}

/** Resolves once the user's mailbox reports "idle" (real-time monitoring with IMAP IDLE). */
export async function waitForIdle(base: string, token: string, timeoutMs = 60_000) {
  await waitFor(
    async () => (await call(base, "GET", "/api/imap/status", token)).status === "idle",
    "the mailbox to idle",
    timeoutMs,
    50,
  );
}

/** Connects the mailbox with the app password and waits until it idles. */
export async function connectMailbox(base: string, token: string): Promise<void> {
  await call(base, "POST", "/api/imap/app-password", token, {
    email: MAIL_USER,
    appPassword: MAIL_PASS,
  });
  await waitForIdle(base, token);
}

/** How many orders the user has (the list's X-Total-Count header). */
export async function orderCount(base: string, token: string): Promise<number> {
  const res = await fetch(`${base}/api/orders?limit=1`, {
    headers: { authorization: `Bearer ${token}` },
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`GET /api/orders answered ${res.status}`);
  return Number(res.headers.get("x-total-count") ?? Number.NaN);
}
