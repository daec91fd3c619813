/**
 * classifyImapError: imapflow marks EVERY `NO` to LOGIN/AUTHENTICATE as authenticationFailed; the
 * response code and Gmail's texts decide what it is. (Against the real app, with a scripted IMAP
 * server: test/api/imap-faults.test.ts.)
 */
import { describe, expect, test } from "bun:test";
import { classifyImapError, REFUSAL_WAIT_MS } from "./client.ts";

/** Gmail's web-login refusal in our words (locales/en.json mailbox.server.webLogin). */
const WEB_LOGIN_REQUIRED =
  "Gmail wants this account to sign in on the web first. Open https://mail.google.com in a browser, sign in with this account and follow the steps there; Grapevine tries again by itself.";

/** An error shaped as imapflow's login() throws it. */
const loginNo = (code: string | undefined, text: string) =>
  Object.assign(new Error("Command failed"), {
    authenticationFailed: true,
    serverResponseCode: code,
    responseText: text,
    responseStatus: "NO",
  });

describe("login refusals", () => {
  const cases: Array<[string | undefined, string, string, number | null]> = [
    ["AUTHENTICATIONFAILED", "Invalid credentials (Failure)", "auth", null],
    ["AUTHORIZATIONFAILED", "Not allowed", "auth", null],
    ["EXPIRED", "Password expired", "auth", null],
    [
      "ALERT",
      "Application-specific password required: https://support.google.com/accounts/answer/185833 (Failure)",
      "auth",
      null,
    ],
    ["ALERT", "Invalid credentials (Failure)", "auth", null],
    [undefined, "Authentication failed.", "auth", null],
    [
      "ALERT",
      "Please log in via your web browser: https://support.google.com/mail/accounts/answer/78754 (Failure)",
      "refused",
      REFUSAL_WAIT_MS.webLogin,
    ],
    ["WEBALERT", "Web login required.", "refused", REFUSAL_WAIT_MS.webLogin],
    [
      "ALERT",
      "Too many simultaneous connections. (Failure)",
      "refused",
      REFUSAL_WAIT_MS.tooManyConnections,
    ],
    ["THROTTLED", "Slow down", "refused", REFUSAL_WAIT_MS.throttled],
    [
      "ALERT",
      "Account exceeded command or bandwidth limits. (Failure)",
      "refused",
      REFUSAL_WAIT_MS.bandwidth,
    ],
    ["UNAVAILABLE", "Temporary System Problem. Try again later", "refused", null],
    ["LIMIT", "Too many connections for this user", "refused", REFUSAL_WAIT_MS.limit],
    ["OVERQUOTA", "Over quota", "refused", REFUSAL_WAIT_MS.overQuota],
    ["ALERT", "Something unusual", "refused", null],
  ];
  for (const [code, text, kind, wait] of cases) {
    test(`NO [${code ?? "no code"}] ${text.slice(0, 40)} → ${kind}`, () => {
      const e = classifyImapError(loginNo(code, text));
      expect(e.kind).toBe(kind as typeof e.kind);
      expect(e.retryAfterMs).toBe(wait);
      if (kind === "refused") expect(e.status).toBe(503);
    });
  }

  test("web login required has its own message telling the user what to do", () => {
    expect(classifyImapError(loginNo("WEBALERT", "Web login required.")).message).toBe(
      WEB_LOGIN_REQUIRED,
    );
  });
});

describe("connection faults in one sentence", () => {
  const ep = { host: "imap.example.com", port: 993, tls: true };
  const sock = (code: string, message = code) => Object.assign(new Error(message), { code });
  test.each([
    [
      "ENOTFOUND",
      sock("ENOTFOUND", "getaddrinfo ENOTFOUND imap.example.com"),
      502,
      "Could not find imap.example.com: no such server name, or DNS is not answering.",
    ],
    [
      "ECONNREFUSED",
      sock("ECONNREFUSED"),
      502,
      "imap.example.com:993 refused the connection: no mail server is listening there.",
    ],
    [
      "CONNECT_TIMEOUT",
      sock("CONNECT_TIMEOUT", "Failed to establish connection in required time"),
      504,
      "imap.example.com:993 did not answer in time.",
    ],
    [
      "ERR_TLS_CERT_ALTNAME_INVALID",
      sock("ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames"),
      502,
      "The server's certificate is not valid for imap.example.com.",
    ],
    [
      "CERT_HAS_EXPIRED",
      sock("CERT_HAS_EXPIRED", "certificate has expired"),
      502,
      "The server's certificate for imap.example.com has expired.",
    ],
    [
      "DEPTH_ZERO_SELF_SIGNED_CERT",
      sock("DEPTH_ZERO_SELF_SIGNED_CERT", "self signed certificate"),
      502,
      "The server's certificate for imap.example.com is not signed by a trusted authority.",
    ],
    [
      "ERR_SSL_WRONG_VERSION_NUMBER",
      sock("ERR_SSL_WRONG_VERSION_NUMBER", "wrong version number"),
      502,
      "Could not make a secure (TLS) connection to imap.example.com:993: is it an IMAP server with TLS on that port?",
    ],
  ] as const)("%s", (_name, err, status, message) => {
    const e = classifyImapError(err, ep);
    expect(e.kind).toBe("network");
    expect(e.status).toBe(status);
    expect(e.message).toBe(message);
  });
});

describe("a connection that fails after its login (no endpoint at hand)", () => {
  const sock = (code: string, message = code) => Object.assign(new Error(message), { code });
  test.each([
    [
      "ECONNRESET",
      sock("ECONNRESET", "read ECONNRESET"),
      "The connection to the mail server was lost.",
      "mailbox.server.connectionLostUnnamed",
    ],
    [
      "ETIMEDOUT",
      sock("ETIMEDOUT", "Socket timeout"),
      "the mail server did not answer in time.",
      "mailbox.server.timeoutUnnamed",
    ],
    [
      "ENOTFOUND",
      sock("ENOTFOUND", "getaddrinfo ENOTFOUND"),
      "Could not find the mail server: no such server name, or DNS is not answering.",
      "mailbox.server.notFoundUnnamed",
    ],
    [
      "ECONNREFUSED",
      sock("ECONNREFUSED", "connect ECONNREFUSED"),
      "the mail server refused the connection: no mail server is listening there.",
      "mailbox.server.connectionRefusedUnnamed",
    ],
    [
      "EHOSTUNREACH",
      sock("EHOSTUNREACH"),
      "the mail server cannot be reached from this server (no route to it).",
      "mailbox.server.unreachableUnnamed",
    ],
    [
      "CERT_HAS_EXPIRED",
      sock("CERT_HAS_EXPIRED", "certificate has expired"),
      "The server's certificate for the mail server has expired.",
      "mailbox.server.certificateExpiredUnnamed",
    ],
    [
      "ERR_TLS_CERT_ALTNAME_INVALID",
      sock("ERR_TLS_CERT_ALTNAME_INVALID", "Hostname/IP does not match certificate's altnames"),
      "The server's certificate is not valid for the mail server.",
      "mailbox.server.certificateNameUnnamed",
    ],
    [
      "SELF_SIGNED_CERT_IN_CHAIN",
      sock("SELF_SIGNED_CERT_IN_CHAIN", "self signed certificate in certificate chain"),
      "The server's certificate for the mail server is not signed by a trusted authority.",
      "mailbox.server.certificateUntrustedUnnamed",
    ],
    [
      "ERR_SSL_WRONG_VERSION_NUMBER",
      sock("ERR_SSL_WRONG_VERSION_NUMBER", "wrong version number"),
      "Could not make a secure (TLS) connection to the mail server: is it an IMAP server with TLS on that port?",
      "mailbox.server.tlsUnnamed",
    ],
  ] as const)(
    "%s: the same English words, and a text for the reader's language",
    (_name, err, message, code) => {
      const e = classifyImapError(err);
      expect(e.kind).toBe("network");
      expect(e.message).toBe(message);
      expect(e.text).toEqual({ code });
    },
  );
});
