/**
 * Run bundled as the server is (scripts/build-server.ts, with its lazy stand-ins) by
 * test/lazy-modules.test.ts: Grapevine's IMAP client (src/mail/imap/client.ts) connects to the
 * Dovecot given (IMAP_PORT, IMAP_USER, IMAP_PASS; it offers COMPRESS=DEFLATE, as Gmail does) and
 * opens the INBOX, and the stand-ins it loaded by then and whether it compressed are noted; then every
 * message's subject (the envelope, decoded by libmime) and first body part (downloaded, decoded by
 * encoding-japanese or iconv-lite) are read; then imapflow with its defaults connects (it turns
 * COMPRESS on, through the real node:zlib) and reads the messages again; then a connection through
 * a SOCKS proxy that is not there is tried. Prints one JSON line.
 */
import { ImapFlow } from "imapflow";
import { createImapClient } from "../../src/mail/imap/client.ts";

const loaded = () => [
  ...((globalThis as { __lazyStandInsLoaded?: Set<string> }).__lazyStandInsLoaded ?? []),
];

const options = {
  host: "127.0.0.1",
  port: Number(process.env.IMAP_PORT),
  secure: false,
  doSTARTTLS: false,
  auth: { user: String(process.env.IMAP_USER), pass: String(process.env.IMAP_PASS) },
  logger: false as const,
};

/** Whether imapflow wrapped the connection in DEFLATE (its own field: no API says it). */
const compressed = (c: ImapFlow) => Boolean((c as unknown as { _deflate?: unknown })._deflate);

const client = await createImapClient({
  endpoint: { host: options.host, port: options.port, tls: false },
  auth: options.auth,
});
await client.connect();
const compressOffered = client.capabilities.has("COMPRESS=DEFLATE");
const connectionCompressed = compressed(client);
await client.list();
await client.mailboxOpen("INBOX");
await client.noop();
const afterConnect = loaded();

const messages: Array<{ subject: string | undefined; body: string }> = [];
for await (const msg of client.fetch("1:*", { envelope: true, uid: true })) {
  messages.push({ subject: msg.envelope?.subject, body: "" });
}
for (const [i, m] of messages.entries()) {
  const { content } = await client.download(String(i + 1), "1");
  const chunks: Buffer[] = [];
  for await (const chunk of content ?? []) chunks.push(chunk as Buffer);
  m.body = Buffer.concat(chunks).toString("utf8");
}
const afterDecode = loaded();
await client.logout();

// imapflow's defaults turn COMPRESS on: the stand-in loads the real node:zlib.
const deflated = new ImapFlow(options);
await deflated.connect();
await deflated.mailboxOpen("INBOX");
const deflatedSubjects: Array<string | undefined> = [];
for await (const msg of deflated.fetch("1:*", { envelope: true })) {
  deflatedSubjects.push(msg.envelope?.subject);
}
const whenAllowed = { compressed: compressed(deflated), subjects: deflatedSubjects };
await deflated.logout();
const afterCompress = loaded();

// Through a proxy: the real SOCKS client is loaded and tries it (nothing listens on the port);
// imapflow logs what the client threw.
const logged: string[] = [];
const note = (entry: { msg?: string; err?: { message?: string } }) => {
  if (entry.err) logged.push(`${entry.msg}: ${entry.err.message}`);
};
const proxied = new ImapFlow({
  ...options,
  proxy: `socks5://127.0.0.1:${process.env.NO_PROXY_PORT}`,
  logger: { debug: note, info: note, warn: note, error: note },
});
proxied.on("error", () => {});
await proxied.connect().catch(() => {});
const proxyError = logged.find((l) => l.startsWith("Failed to establish a socket via SOCKS")) ?? "";
console.log(
  JSON.stringify({
    compressOffered,
    connectionCompressed,
    afterConnect,
    messages,
    afterDecode,
    whenAllowed,
    afterCompress,
    proxyError,
    afterProxy: loaded(),
  }),
);
process.exit(0);
