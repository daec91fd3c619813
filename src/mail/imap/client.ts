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
 *   a bounded batch of sources into memory with `fetchSources`, and
 *   only once that loop has ended issue any other command.
 */
import type { ImapFlow, SearchObject } from "imapflow";
import pTimeout from "p-timeout";
import type { MailFolder } from "../../contract/index.ts";
import type { TextPart, TextValue } from "../../contract/text.ts";
import { english, text } from "../../i18n/text.ts";
import type { Logger } from "../../log.ts";
import type { SecretError } from "../../util/secrets.ts";

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

/**
 * auth: the server rejected the credentials (only this expires a mailbox);
 * refused: the server is there but refuses for now (busy, throttled, over a limit, wants a web
 *   sign-in): retried later, after `retryAfterMs` when the refusal says how long to wait;
 * network: the server could not be reached or stopped answering;
 * other: anything else (a command the server refused, an unusable stored secret...).
 */
export type ImapErrorKind = "auth" | "refused" | "network" | "other";

export class ImapError extends Error {
  /** The HTTP status a request that met this error answers with (never a 4xx: not the user's fault). */
  readonly status: 502 | 503 | 504;
  constructor(
    readonly kind: ImapErrorKind,
    message: string,
    cause?: unknown,
    opts: { retryAfterMs?: number; status?: 502 | 503 | 504; text?: TextPart } = {},
  ) {
    super(message, { cause });
    this.text = opts.text ?? null;
    this.retryAfterMs = opts.retryAfterMs ?? null;
    this.status = opts.status ?? (kind === "refused" ? 503 : 502);
  }
  /** How long the server asked us to wait before the next try, when it did. */
  readonly retryAfterMs: number | null;
  /** The message as a catalog id and values (src/contract/text.ts), when it is one of ours. */
  readonly text: TextPart | null;
}

/** An ImapError whose words are `mailbox.server.<id>` of the English catalog. */
export function imapError(
  kind: ImapErrorKind,
  id: string,
  values?: Record<string, TextValue>,
  cause?: unknown,
  opts: { retryAfterMs?: number; status?: 502 | 503 | 504 } = {},
): ImapError {
  const t = text(`mailbox.server.${id}`, values);
  return new ImapError(kind, english(t), cause, { ...opts, text: t });
}

/** A stored mailbox secret that cannot be read, as an ImapError with its text. */
export function secretImapError(err: SecretError): ImapError {
  const id =
    err.kind === "key"
      ? "secretUnreadable"
      : err.kind === "format"
        ? "secretFormat"
        : err.kind === "truncated"
          ? "secretTruncated"
          : null;
  return id ? imapError("other", id, undefined, err) : new ImapError("other", err.message, err);
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
  response?: unknown;
  responseStatus?: string;
};

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * How long to wait after a refusal that names its cause (Gmail's texts, RFC 5530 codes). Gmail's
 * IMAP allowance (about 2,500 MB downloaded a day) is a rolling window: hours, not seconds.
 */
export const REFUSAL_WAIT_MS = {
  bandwidth: 3 * HOUR,
  webLogin: 15 * MINUTE,
  throttled: 10 * MINUTE,
  tooManyConnections: 2 * MINUTE,
  limit: 5 * MINUTE,
  overQuota: HOUR,
} as const;

/** A login refusal: the credentials (auth), or a temporary refusal (refused) with its wait. */
function classifyRefusal(code: string, text: string, err: unknown): ImapError | null {
  const t = text.replace(/\s+/g, " ").trim();
  const refused = (id: string, retryAfterMs?: number) =>
    imapError("refused", id, { reason: t }, err, { retryAfterMs });
  const loginRefused = () => imapError("auth", "loginRefused", { reason: t }, err);
  // Gmail's wrong-password answers, whatever code they carry.
  if (
    /invalid credentials|username and password not accepted|application-specific password required/i.test(
      t,
    )
  ) {
    return loginRefused();
  }
  if (code === "WEBALERT" || /web login required|log ?in via your web browser/i.test(t)) {
    return refused("webLogin", REFUSAL_WAIT_MS.webLogin);
  }
  if (/exceeded (?:command or )?bandwidth|bandwidth limit/i.test(t)) {
    return refused("bandwidth", REFUSAL_WAIT_MS.bandwidth);
  }
  if (/too many simultaneous connections/i.test(t)) {
    return refused("tooManyConnections", REFUSAL_WAIT_MS.tooManyConnections);
  }
  if (code === "THROTTLED" || /throttl/i.test(t)) {
    return refused("throttled", REFUSAL_WAIT_MS.throttled);
  }
  switch (code) {
    case "AUTHENTICATIONFAILED":
    case "AUTHORIZATIONFAILED":
    case "EXPIRED":
      return loginRefused();
    case "UNAVAILABLE":
      return refused("unavailable");
    case "LIMIT":
      return refused("limit", REFUSAL_WAIT_MS.limit);
    case "OVERQUOTA":
      return refused("overQuota", REFUSAL_WAIT_MS.overQuota);
    case "ALERT":
      return refused("alert");
  }
  return null;
}

/** A fault without an endpoint at hand (a connection already made) is said of "the mail server". */
const unnamed = (id: string) => `${id}Unnamed`;

const TLS_CODE =
  /^(?:ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|ERR_X509)/;

/** A socket-level failure in one sentence (the host and port named), or null. */
function classifyConnectionFault(e: ErrLike, err: unknown, ep?: ImapEndpoint): ImapError | null {
  // The sentence with the server named; without an endpoint (a connection that failed after
  // its login) the same sentence said of "the mail server" (`mailbox.server.<id>Unnamed`).
  const fault = (id: string, status: 502 | 504 = 502) =>
    ep
      ? imapError("network", id, { host: ep.host, where: `${ep.host}:${ep.port}` }, err, { status })
      : imapError("network", unnamed(id), undefined, err, { status });
  const code = e.code ?? "";
  const text = `${e.message ?? ""}`;
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || /getaddrinfo|DNS/i.test(text)) {
    return fault("notFound");
  }
  if (code === "ECONNREFUSED" || /connection refused/i.test(text)) {
    return fault("connectionRefused");
  }
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") {
    return fault("unreachable");
  }
  if (
    code === "ETIMEDOUT" ||
    code === "ETIMEOUT" ||
    code === "CONNECT_TIMEOUT" ||
    code === "GREETING_TIMEOUT" ||
    /timed? ?out/i.test(text)
  ) {
    return fault("timeout", 504);
  }
  if (TLS_CODE.test(code) || /certificate|ssl|tls/i.test(text)) {
    if (/ALTNAME|HOSTNAME|not valid for|does not match/i.test(`${code} ${text}`)) {
      return fault("certificateName");
    }
    if (/EXPIRED/i.test(code) || /expired/i.test(text)) {
      return fault("certificateExpired");
    }
    if (/SELF_SIGNED|UNABLE_TO_|DEPTH_ZERO|issuer|self.signed/i.test(`${code} ${text}`)) {
      return fault("certificateUntrusted");
    }
    return fault("tls");
  }
  if (NETWORK_CODES.has(code) || /socket|connection|closed/i.test(text)) {
    return fault("connectionLost");
  }
  return null;
}

/**
 * Sorts an imapflow (or socket) error into auth / refused / network / other, with one sentence a
 * person can act on. imapflow sets `authenticationFailed` on EVERY `NO` to LOGIN/AUTHENTICATE, so
 * the response code and text decide: only a real credential rejection is "auth".
 */
export function classifyImapError(err: unknown, endpoint?: ImapEndpoint): ImapError {
  if (err instanceof ImapError) return err;
  const e = (err ?? {}) as ErrLike;
  const responseText = typeof e.response === "string" ? e.response : "";
  const text = e.responseText || responseText || e.message || String(err);
  const code = (e.serverResponseCode ?? "").toUpperCase();
  if (e.authenticationFailed || code) {
    const r = classifyRefusal(code, text, err);
    if (r) return r;
    // A bare NO to LOGIN: the credentials.
    if (e.authenticationFailed) return imapError("auth", "loginRefused", { reason: text }, err);
  }
  return classifyConnectionFault(e, err, endpoint) ?? new ImapError("other", text, err);
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
  // node:net with the first connection, as imapflow (which loads it anyway), not at start.
  const { isIP } = require("node:net") as typeof import("node:net");
  const client = new ImapFlow({
    host: endpoint.host,
    port: endpoint.port,
    secure: endpoint.tls,
    // Without TLS (local test servers) never try STARTTLS; with TLS it is implicit on 993.
    doSTARTTLS: endpoint.tls ? undefined : false,
    servername: endpoint.tls && isIP(endpoint.host) === 0 ? endpoint.host : undefined,
    auth:
      "pass" in opts.auth
        ? { user: opts.auth.user, pass: opts.auth.pass, loginMethod: "LOGIN" }
        : { user: opts.auth.user, accessToken: opts.auth.accessToken },
    logger: imapLogger(opts.log),
    clientInfo: { name: "Grapevine" },
    disableAutoIdle: true,
    connectionTimeout: opts.connectionTimeoutMs ?? 30_000,
    greetingTimeout: opts.greetingTimeoutMs ?? 16_000,
    // Inactivity: a command unanswered this long ends the connection (IDLE is kept alive by the
    // supervisor's own check, src/mail/imap/supervisor.ts).
    socketTimeout: opts.socketTimeoutMs ?? 30_000,
    id: opts.id,
    // No COMPRESS=DEFLATE (Gmail offers it): a few small messages a day gain nothing from it, and
    // it costs node:zlib's code plus a deflate and an inflate context for as long as the mailbox
    // is connected (README "Memory"); imapflow's zlib is a stand-in (scripts/lazy-stand-ins.ts).
    disableCompression: true,
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
    throw classifyImapError(err, opts.endpoint);
  }
}

/** LOGOUT, or close when the server does not answer in time. Never throws. */
export async function closeImap(client: ImapFlow | null | undefined, timeoutMs = 3000) {
  if (!client || client.isClosed) return;
  try {
    await pTimeout(client.logout(), { milliseconds: timeoutMs, message: false });
  } catch {
    // closing anyway
  } finally {
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
