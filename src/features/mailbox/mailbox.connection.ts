/**
 * The mailbox's connections: the stored credential (app password, or an OAuth access token made
 * fresh before every connect), a new logged-in imapflow client per use (with the supervisor's
 * command timeout), the folder settings the supervisor reads, and short-lived connections for a
 * request (`withClient`), whose failures become answers a person can act on: 409 when the
 * credentials were refused (the mailbox expires), 503 for a temporary refusal, 502/504 when the
 * server cannot be reached. Never 400: the user typed nothing wrong.
 *
 * An OAuth access token Gmail refuses at login is not yet a credential rejection (Google may have
 * ended it early; a cached one may be stale): it is forgotten and the login tried once more with a
 * freshly refreshed token. Only a refusal of that fresh token, or `invalid_grant` from Google's
 * token endpoint while refreshing, expires the mailbox.
 */
import type { ImapFlow } from "imapflow";
import type { MailboxAccountRow } from "../../db/schema.ts";
import type { Logger } from "../../log.ts";
import {
  classifyImapError,
  closeImap,
  connectImap,
  type ImapAuth,
  type ImapEndpoint,
  type ImapError,
  imapError,
  secretImapError,
} from "../../mail/imap/client.ts";
import type { MailSettings } from "../../mail/imap/ports.ts";
import type { SupervisorTimings } from "../../mail/imap/supervisor.ts";
import { AppError, conflict } from "../../util/errors.ts";
import { SecretError, type Secrets } from "../../util/secrets.ts";
import type { MailboxRepo } from "./mailbox.repo.ts";

/**
 * A connection failure as the answer to a request: a temporary refusal is 503 with the
 * refusal in words (and Retry-After when the server said how long); an unreachable server
 * 502/504 with one sentence. Never 400: the user typed nothing wrong.
 */
export function unavailable(e: ImapError): AppError {
  const headers: Record<string, string> | undefined = e.retryAfterMs
    ? { "Retry-After": String(Math.ceil(e.retryAfterMs / 1000)) }
    : undefined;
  // The reason: our sentence (with its text, for the reader's language) around the mail
  // server's or the network's own words, which stay as they came.
  const texts = e.text ? { reason: e.text } : undefined;
  if (e.kind === "refused") {
    return new AppError(
      503,
      "mail_server_refused",
      { reason: e.message },
      undefined,
      headers,
      texts,
    );
  }
  if (e.kind === "network") {
    return new AppError(
      e.status,
      "mail_server_unreachable",
      { reason: e.message },
      undefined,
      undefined,
      texts,
    );
  }
  return new AppError(
    502,
    "gmail_connection_refused",
    { reason: e.message },
    undefined,
    undefined,
    texts,
  );
}

export function createMailboxConnections(deps: {
  repo: MailboxRepo;
  secrets: Secrets;
  /** Gmail's IMAP endpoint (config GMAIL_IMAP_*). */
  endpoint: ImapEndpoint;
  log: Logger;
  timings: SupervisorTimings;
  oauthAccessToken?: (userId: number, account: MailboxAccountRow) => Promise<string>;
  /** Gmail refused this access token at login: the next `oauthAccessToken` must refresh. */
  oauthTokenRefused?: (userId: number, accessToken: string) => void;
  /** The server refused the stored credentials (the mailbox expires). */
  onAuthFailure: (userId: number, err: ImapError) => void;
}) {
  const { repo, timings } = deps;
  const userLog = (userId: number) => deps.log.child({ userid: userId });

  async function credentials(account: MailboxAccountRow): Promise<ImapAuth> {
    if (!account.secretEnc) throw imapError("auth", "noCredential");
    let secret: string;
    try {
      secret = deps.secrets.decrypt(account.secretEnc);
    } catch (err) {
      // Not "auth": a missing or changed key must never make us forget the stored credential.
      if (err instanceof SecretError) throw secretImapError(err);
      throw err;
    }
    if (account.authType === "oauth") {
      if (!deps.oauthAccessToken) {
        throw imapError("other", "oauthNotConfigured");
      }
      return {
        user: account.emailAddress,
        accessToken: await deps.oauthAccessToken(account.userId, account),
      };
    }
    return { user: account.emailAddress, pass: secret };
  }

  /** A new logged-in client for the user's connected mailbox. */
  async function connectFor(userId: number, purpose: string): Promise<ImapFlow> {
    const account = repo.findAccount(userId);
    if (!account?.isConnected || account.authState !== "ok") {
      throw imapError("other", "notConnected");
    }
    const login = async (auth: ImapAuth) =>
      connectImap({
        endpoint: deps.endpoint,
        auth,
        log: userLog(userId),
        id: `u${userId}-${purpose}`,
        socketTimeoutMs: timings.commandTimeoutMs,
      });
    const auth = await credentials(account);
    try {
      return await login(auth);
    } catch (err) {
      if (!("accessToken" in auth) || classifyImapError(err, deps.endpoint).kind !== "auth") {
        throw err;
      }
      // Refused access token: once more with a freshly refreshed one (invalid_grant while
      // refreshing throws an "auth" ImapError from `credentials`, which expires the mailbox).
      userLog(userId).warn(
        { purpose },
        "Gmail refused the OAuth access token: retrying once with a refreshed one",
      );
      deps.oauthTokenRefused?.(userId, auth.accessToken);
      const fresh = await credentials(account);
      if ("accessToken" in fresh && fresh.accessToken === auth.accessToken) throw err;
      return login(fresh);
    }
  }

  function settingsOf(userId: number): MailSettings | null {
    const a = repo.findAccount(userId);
    if (!a?.isConnected || a.authState !== "ok") return null;
    return {
      selectedFolder: a.selectedFolder,
      processedFolder: a.processedFolder,
      markProcessedAsRead: a.markProcessedAsRead,
    };
  }

  /** Runs fn on a short-lived connection; IMAP failures become 409/502/503/504 with a clear message. */
  async function withClient<T>(userId: number, what: string, fn: (c: ImapFlow) => Promise<T>) {
    let c: ImapFlow;
    try {
      c = await connectFor(userId, what);
    } catch (err) {
      const e = classifyImapError(err, deps.endpoint);
      if (e.kind === "auth") {
        deps.onAuthFailure(userId, e);
        throw conflict("gmail_expired");
      }
      throw unavailable(e);
    }
    try {
      return await fn(c);
    } catch (err) {
      if (err instanceof AppError) throw err;
      const e = classifyImapError(err);
      throw new AppError(
        503,
        "gmail_unexpected",
        { reason: e.message },
        undefined,
        undefined,
        e.text ? { reason: e.text } : undefined,
      );
    } finally {
      await closeImap(c);
    }
  }

  return { connectFor, settingsOf, withClient };
}
export type MailboxConnections = ReturnType<typeof createMailboxConnections>;
