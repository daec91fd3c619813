/**
 * The imapflow wrapper: every IMAP connection of the app is made here.
 *
 * - `connectImap` builds a NEW client for each connection (a closed imapflow client cannot
 *   reconnect), always with an `error` listener, and logs in with `{user, pass}` (app password) or
 *   `{user, accessToken}` (OAuth: OAUTHBEARER/XOAUTH2). Host, port and TLS come from the caller
 *   (config GMAIL_IMAP_*). Under Bun, TLS to a raw IP address fails: use a host name.
 * - Errors are sorted into auth / network / other with a message a person can act on.
 * - Search helpers only ever ask for Amazon's mail (server-side), with X-GM-RAW only when the
 *   server advertises X-GM-EXT-1.
 * - Never issue a command inside a `for await` fetch loop: callers collect UIDs first, then fetch
 *   a bounded batch of sources into memory with `fetchSources` (or one with `fetchSource`), and
 *   only once that loop has ended issue any other command.
 */
import net from "node:net";
import type { ImapFlow, SearchObject } from "imapflow";
import type { MailFolder } from "../../contract/index.ts";
import type { Logger } from "../../log.ts";

export type ImapAuth = { user: string; pass: string } | { user: string; accessToken: string };
export type ImapEndpoint = { host: string; port: number; tls: boolean };

export type ImapConnectOptions = {
  endpoint: ImapEndpoint;
  auth: ImapAuth;
  log?: Logger;
  /** For logs: which user/purpose this connection serves. */
  id?: string;
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
};

export type ImapErrorKind = "auth" | "network" | "other";

export class ImapError extends Error {
  constructor(
    readonly kind: ImapErrorKind,
    message: string,
    cause?: unknown,
  ) {
    super(message, { cause });
  }
}

const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "ETIMEOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EPIPE",
  "CONNECT_TIMEOUT",
  "GREETING_TIMEOUT",
  "NoConnection",
  "ClosedAfterConnectTLS",
  "ClosedAfterConnectText",
]);

type ErrLike = {
  message?: string;
  code?: string;
  authenticationFailed?: boolean;
  serverResponseCode?: string;
  responseText?: string;
};

/** Sorts an imapflow (or socket) error into auth / network / other. */
export function classifyImapError(err: unknown): ImapError {
  if (err instanceof ImapError) return err;
  const e = (err ?? {}) as ErrLike;
  const text = e.responseText || e.message || String(err);
  if (e.authenticationFailed || e.serverResponseCode === "AUTHENTICATIONFAILED") {
    // Gmail: [AUTHENTICATIONFAILED] Invalid credentials; [ALERT]/[UNAVAILABLE] are not auth.
    return new ImapError("auth", `The server refused the login: ${text}`, err);
  }
  if (e.serverResponseCode === "UNAVAILABLE" || e.serverResponseCode === "LIMIT") {
    return new ImapError("network", `The server is busy: ${text}`, err);
  }
  if ((e.code && NETWORK_CODES.has(e.code)) || /socket|connection|closed|timeout/i.test(text)) {
    return new ImapError("network", `Cannot reach the mail server: ${text}`, err);
  }
  return new ImapError("other", text, err);
}

/** imapflow is chatty at info level: its info goes to our debug, its debug is dropped. */
function imapLogger(log: Logger | undefined) {
  if (!log) return false as const;
  return {
    debug: () => {},
    info: (o: unknown) => log.debug(o as object),
    warn: (o: unknown) => log.warn(o as object),
    error: (o: unknown) => log.warn(o as object),
  };
}

/**
 * imapflow, loaded the first time a mailbox connects: it is the largest module of the server
 * (~65 ms and ~20 MB to load), and an installation without a connected mailbox never needs it.
 */
let imapflowModule: Promise<typeof import("imapflow")> | null = null;
const loadImapFlow = () => {
  imapflowModule ??= import("imapflow");
  return imapflowModule;
};

/** A new client, not yet connected, with an error listener already attached. */
export async function createImapClient(opts: ImapConnectOptions): Promise<ImapFlow> {
  const { endpoint } = opts;
  const { ImapFlow } = await loadImapFlow();
  const client = new ImapFlow({
    host: endpoint.host,
    port: endpoint.port,
    secure: endpoint.tls,
    // Without TLS (local test servers) never try STARTTLS; with TLS it is implicit on 993.
    doSTARTTLS: endpoint.tls ? undefined : false,
    servername: endpoint.tls && net.isIP(endpoint.host) === 0 ? endpoint.host : undefined,
    auth:
      "pass" in opts.auth
        ? { user: opts.auth.user, pass: opts.auth.pass, loginMethod: "LOGIN" }
        : { user: opts.auth.user, accessToken: opts.auth.accessToken },
    logger: imapLogger(opts.log),
    clientInfo: { name: "Grapevine" },
    disableAutoIdle: true,
    connectionTimeout: opts.connectionTimeoutMs ?? 30_000,
    greetingTimeout: opts.greetingTimeoutMs ?? 16_000,
    socketTimeout: opts.socketTimeoutMs ?? 30 * 60_000,
    id: opts.id,
  });
  // An 'error' without a listener would crash the process.
  client.on("error", (err: Error) => {
    opts.log?.debug({ err: err.message, id: opts.id }, "imap connection error");
  });
  return client;
}

/** Connects and logs in; on failure the client is closed and an ImapError is thrown. */
export async function connectImap(opts: ImapConnectOptions): Promise<ImapFlow> {
  const client = await createImapClient(opts);
  try {
    await client.connect();
    return client;
  } catch (err) {
    client.close();
    throw classifyImapError(err);
  }
}

/** LOGOUT, or close when the server does not answer in time. Never throws. */
export async function closeImap(client: ImapFlow | null | undefined, timeoutMs = 3000) {
  if (!client || client.isClosed) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([
      client.logout(),
      new Promise((resolve) => {
        timer = setTimeout(resolve, timeoutMs);
      }),
    ]);
  } catch {
    // closing anyway
  } finally {
    clearTimeout(timer);
    try {
      client.close();
    } catch {
      // already closed
    }
  }
}

/** Selectable folders with their special-use flag as the server reports it (not by name). */
export async function listFolders(client: ImapFlow): Promise<MailFolder[]> {
  const list = await client.list();
  const out: MailFolder[] = [];
  for (const f of list) {
    const flags = [...f.flags].map((x) => x.toLowerCase());
    if (flags.includes("\\noselect") || flags.includes("\\nonexistent")) continue;
    const specialUse =
      f.path.toUpperCase() === "INBOX"
        ? "\\Inbox"
        : f.specialUseSource === "extension"
          ? (f.specialUse ?? null)
          : null;
    out.push({ name: f.name, path: f.path, specialUse });
  }
  // INBOX first, then special-use folders, then the rest by path.
  const rank = (f: MailFolder) => (f.path.toUpperCase() === "INBOX" ? 0 : f.specialUse ? 1 : 2);
  return out.sort((a, b) => rank(a) - rank(b) || a.path.localeCompare(b.path));
}

/**
 * The server-side search for Amazon's mail: an OR of FROM terms (works on every server), or one
 * X-GM-RAW query on Gmail. `uidFrom` limits to UIDs at or above it; `since` to INTERNALDATE.
 */
export function amazonSearchQuery(
  client: Pick<ImapFlow, "capabilities">,
  domains: readonly string[],
  opts: { uidFrom?: number; since?: Date },
): SearchObject {
  const q: SearchObject = {};
  if (opts.uidFrom !== undefined) q.uid = `${Math.max(1, opts.uidFrom)}:*`;
  if (opts.since) q.since = opts.since;
  if (client.capabilities.has("X-GM-EXT-1")) {
    q.gmraw = `from:(${domains.join(" OR ")})`;
  } else if (domains.length === 1) {
    q.from = domains[0];
  } else {
    q.or = domains.map((d) => ({ from: d }));
  }
  return q;
}

/** UIDs of Amazon's mail in the selected folder, ascending, strictly above `afterUid`. */
export async function searchAmazonUids(
  client: ImapFlow,
  domains: readonly string[],
  opts: { afterUid?: number; since?: Date },
): Promise<number[]> {
  const after = opts.afterUid ?? 0;
  const query = amazonSearchQuery(client, domains, {
    uidFrom: opts.afterUid !== undefined ? after + 1 : undefined,
    since: opts.since,
  });
  const found = await client.search(query, { uid: true });
  if (!found) return [];
  // "N:*" always matches the highest UID, even below N: filter.
  return [...new Set(found)].filter((u) => u > after).sort((a, b) => a - b);
}

/** The raw message by UID (BODY.PEEK[]: fetching does not mark it read), or null when gone. */
export async function fetchSource(client: ImapFlow, uid: number): Promise<Buffer | null> {
  const msg = await client.fetchOne(String(uid), { uid: true, source: true }, { uid: true });
  return msg ? (msg.source ?? null) : null;
}

/** RFC822.SIZE of each UID still in the folder (one FETCH); missing UIDs are gone. */
export async function fetchSizes(
  client: ImapFlow,
  uids: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (uids.length === 0) return out;
  // The loop only collects: no other command is issued until it has ended.
  for await (const msg of client.fetch(uids.join(","), { uid: true, size: true }, { uid: true })) {
    if (msg.uid) out.set(msg.uid, msg.size ?? 0);
  }
  return out;
}

/**
 * The raw messages of `uids` with ONE FETCH (BODY.PEEK[]: fetching does not mark them read), by
 * UID; UIDs that are gone are missing from the map. The caller bounds the batch (count and bytes):
 * every source is held in memory until the loop ends.
 */
export async function fetchSources(
  client: ImapFlow,
  uids: readonly number[],
): Promise<Map<number, Buffer>> {
  const out = new Map<number, Buffer>();
  if (uids.length === 0) return out;
  // The loop only collects: no other command is issued until it has ended.
  for await (const msg of client.fetch(
    uids.join(","),
    { uid: true, source: true },
    { uid: true },
  )) {
    if (msg.uid && msg.source) out.set(msg.uid, msg.source);
  }
  return out;
}
