/**
 * Outgoing requests of alert channels (ntfy servers, webhooks, push services): the one place that
 * decides where Grapevine may send and how.
 *
 * - http and https only; a 5 s timeout for the whole exchange; a response body is read up to
 *   RESPONSE_CAP bytes and the rest dropped; redirects are followed (at most 3) only on the same
 *   host, never to another one.
 * - LAN addresses are allowed (ntfy or Home Assistant on 192.168.x.x, Tailscale's 100.64/10).
 *   Loopback (127/8, ::1) and the server's own addresses (its network interfaces) only when the
 *   administrator sets ALERTS_ALLOW_LOOPBACK=true: otherwise any user could reach services that
 *   listen on the server itself. Link-local and cloud metadata addresses (169.254.0.0/16,
 *   fe80::/10, fd00:ec2::254, Alibaba's 100.100.100.200, Oracle's 192.0.0.192), the unspecified
 *   0.0.0.0/8 and ::, multicast and broadcast are always refused.
 * - An IPv6 address carrying an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d, NAT64 64:ff9b::/96 and
 *   64:ff9b:1::/48, 6to4 2002::/16, Teredo) is judged by the IPv4 address too: a NAT64 gateway or
 *   the host's own stack may deliver it there. Parsing and ranges are ipaddr.js's.
 * - After DNS: the request is made with node:http(s) and a `lookup` of ours, which resolves the
 *   name, refuses the request when ANY of its addresses is refused, and hands the checked address
 *   to the socket. The connection goes to the address that was checked (no second resolution a
 *   rebinding DNS server could answer differently); TLS still checks the certificate against the
 *   host name.
 * - Web Push endpoints: https to a browser's push service only (pushEndpointProblem).
 * - Failures are told in fixed sentences that never carry the far side's words, and a refused
 *   connection, a timeout and a port that does not speak HTTP share one sentence (a user needs
 *   "could not be reached"; telling them apart would make the test button a port scanner).
 */
import type dns from "node:dns";
import type http from "node:http";
import os from "node:os";
import ipaddr from "ipaddr.js";
import type { TextPart, TextValue } from "../../contract/text.ts";
import { english, text } from "../../i18n/text.ts";
import { lazyModule } from "../../util/lazy-module.ts";

// Node's HTTP client, DNS and socket modules load with the first alert sent or address checked,
// not at start: several megabytes resident in a server whose users add no alert channel.
const nodeHttp = lazyModule(() => require("node:http") as typeof import("node:http"));
const nodeHttps = lazyModule(() => require("node:https") as typeof import("node:https"));
const nodeDns = lazyModule(() => require("node:dns") as typeof import("node:dns"));
const nodeNet = lazyModule(() => require("node:net") as typeof import("node:net"));
const net = { isIP: (input: string) => nodeNet().isIP(input) };

export const OUTGOING_TIMEOUT_MS = 5000;
/** Response bytes read (the rest is not); never shown to users (senders.ts says the status). */
export const RESPONSE_CAP = 4096;
const MAX_REDIRECTS = 3;

/** Where a request may go: `allowLoopback` is ALERTS_ALLOW_LOOPBACK. */
export type TargetPolicy = { allowLoopback: boolean };

/**
 * "metadata" (link-local, cloud metadata) and "unusable" (unspecified, multicast, broadcast): never;
 * "loopback": the server itself, only with ALERTS_ALLOW_LOOPBACK; "ok": the LAN and the internet.
 */
export type AddressClass = "metadata" | "unusable" | "loopback" | "ok";

const METADATA_V4 = new Set(["100.100.100.200", "192.0.0.192"]);
const METADATA_V6 = new Set(["fd00:ec2:0:0:0:0:0:254"]);

/** The server's own addresses (its interfaces), read again at most once a minute. */
let own: { at: number; set: Set<string> } | null = null;
function ownAddresses(): Set<string> {
  const t = Date.now();
  if (!own || t - own.at > 60_000) {
    const set = new Set<string>();
    for (const list of Object.values(os.networkInterfaces())) {
      for (const i of list ?? []) {
        const a = i.address.split("%")[0] ?? "";
        if (ipaddr.isValid(a)) set.add(ipaddr.parse(a).toNormalizedString());
      }
    }
    own = { at: t, set };
  }
  return own.set;
}

const v4 = (hi: number, lo: number) => new ipaddr.IPv4([hi >> 8, hi & 0xff, lo >> 8, lo & 0xff]);

/** The IPv4 addresses an IPv6 address carries (mapped, compatible, NAT64, 6to4, Teredo). */
function embeddedV4(a: ipaddr.IPv6): ipaddr.IPv4[] {
  const p = a.parts;
  const last = v4(p[6] ?? 0, p[7] ?? 0);
  switch (a.range()) {
    case "ipv4Mapped":
    case "rfc6145":
    case "rfc6052":
      return [last];
    case "6to4":
      return [v4(p[1] ?? 0, p[2] ?? 0)];
    case "teredo":
      // The server, and the client's address (stored inverted).
      return [v4(p[2] ?? 0, p[3] ?? 0), v4(~(p[6] ?? 0) & 0xffff, ~(p[7] ?? 0) & 0xffff)];
    default:
      // IPv4-compatible ::a.b.c.d (deprecated, still routed by some stacks); not :: or ::1.
      return p.slice(0, 6).every((x) => x === 0) && (p[6] ?? 0) !== 0 ? [last] : [];
  }
}

const RANK: Record<AddressClass, number> = { ok: 0, loopback: 1, unusable: 2, metadata: 3 };
const worst = (a: AddressClass, b: AddressClass) => (RANK[b] > RANK[a] ? b : a);

function classifyV4(a: ipaddr.IPv4): AddressClass {
  const range = a.range();
  if (range === "linkLocal" || METADATA_V4.has(a.toString())) return "metadata";
  if (range === "unspecified" || range === "broadcast" || range === "multicast") return "unusable";
  if (range === "loopback" || ownAddresses().has(a.toNormalizedString())) return "loopback";
  return "ok";
}

/** What kind of address this is for alerts (a non-address is "ok": DNS decides). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[(.*)\]$/, "$1").split("%")[0] ?? "";
  if (net.isIP(bare) === 0) return "ok";
  const a = ipaddr.parse(bare);
  if (a.kind() === "ipv4") return classifyV4(a as ipaddr.IPv4);
  const v6 = a as ipaddr.IPv6;
  const range = v6.range();
  let c: AddressClass = "ok";
  if (range === "linkLocal" || METADATA_V6.has(v6.toNormalizedString())) c = "metadata";
  else if (range === "unspecified" || range === "multicast") c = "unusable";
  else if (range === "loopback" || ownAddresses().has(v6.toNormalizedString())) c = "loopback";
  for (const inner of embeddedV4(v6)) c = worst(c, classifyV4(inner));
  return c;
}

/** True for an address alerts are never sent to under the policy. */
export function isRefusedAddress(address: string, policy?: TargetPolicy): boolean {
  const c = classifyAddress(address);
  return c === "metadata" || c === "unusable" || (c === "loopback" && !policy?.allowLoopback);
}

export type OutgoingFailure =
  | "refused-address"
  | "dns"
  | "timeout"
  | "tls"
  | "connect"
  | "redirect";

/**
 * A failure: `text` is its sentence as an `alerts.server.*` id and values (docs/i18n.md "Server
 * texts"), `message` the same sentence's English words (locales/en.json).
 */
export class OutgoingError extends Error {
  readonly text: TextPart;
  constructor(
    readonly kind: OutgoingFailure,
    id: string,
    values?: Record<string, TextValue>,
  ) {
    const part = text(`alerts.server.${id}`, values);
    super(english(part));
    this.text = part;
  }
}

/** The sentence for a refused address (`host` as the user wrote it, `address` what it is). */
function refusedError(host: string, address: string, policy?: TargetPolicy): OutgoingError | null {
  if (!isRefusedAddress(address, policy)) return null;
  // The `why` select of alerts.server.addressIs / addressResolves.
  const why = classifyAddress(address) as Exclude<AddressClass, "ok">;
  const plain = host.replace(/:\d+$/, "").replace(/^\[(.*)\]$/, "$1");
  return plain === address.replace(/^\[(.*)\]$/, "$1")
    ? new OutgoingError("refused-address", "addressIs", { host, why })
    : new OutgoingError("refused-address", "addressResolves", { host, address, why });
}

const bareHost = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, "$1");

/** A host name → its addresses (dns.lookup with all: true; tests pass their own). */
export type Resolver = (host: string) => Promise<dns.LookupAddress[]>;
export const systemResolver: Resolver = (host) => nodeDns().promises.lookup(host, { all: true });

/** Push services of the browsers that support Web Push (their endpoints' hosts). */
const PUSH_HOSTS = [
  /^fcm\.googleapis\.com$/, // Chrome, Edge on Android, Opera, Samsung Internet…
  /^updates\.push\.services\.mozilla\.com$/, // Firefox
  /^[a-z0-9-]+(\.[a-z0-9-]+)*\.push\.apple\.com$/, // Safari (web.push.apple.com)
  /^[a-z0-9-]+\.notify\.windows\.com$/, // Edge on Windows (wns2-….notify.windows.com)
];

/** The refusal of a push endpoint that breaks the rule below. */
export const PUSH_ENDPOINT_RULE = text("alerts.server.pushEndpointRule");

/**
 * Why a Web Push endpoint is refused, or null: https to a known push service, or (only with
 * ALERTS_ALLOW_LOOPBACK, for a push service run on this machine: the tests' fake) a loopback one.
 */
export function pushEndpointProblem(endpoint: string, policy: TargetPolicy): TextPart | null {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return PUSH_ENDPOINT_RULE;
  }
  if (policy.allowLoopback && classifyAddress(bareHost(u)) === "loopback") return null;
  if (u.protocol !== "https:" || u.username || u.password) return PUSH_ENDPOINT_RULE;
  return PUSH_HOSTS.some((re) => re.test(u.hostname)) ? null : PUSH_ENDPOINT_RULE;
}

/** Resolves the URL's host and checks every address; throws OutgoingError "refused-address". */
export async function checkTarget(
  url: string,
  opts: { resolve?: Resolver; policy: TargetPolicy },
): Promise<void> {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new OutgoingError("refused-address", "onlyHttp");
  }
  const host = bareHost(u);
  if (net.isIP(host)) {
    const refused = refusedError(u.host, host, opts.policy);
    if (refused) throw refused;
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await (opts.resolve ?? systemResolver)(host);
  } catch {
    return; // an unknown name is the far side's problem (the test says so), not a refused target
  }
  for (const a of addresses) {
    const refused = refusedError(u.host, a.address, opts.policy);
    if (refused) throw refused;
  }
}

/** A `lookup` for node:http with the address check: the socket connects to the address checked. */
function checkedLookup(resolve: Resolver, policy: TargetPolicy) {
  return (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname).then(
      (addresses) => {
        for (const a of addresses) {
          const refused = refusedError(hostname, a.address, policy);
          if (refused) {
            callback(refused, "");
            return;
          }
        }
        const usable = options.family
          ? addresses.filter((a) => a.family === options.family)
          : addresses;
        const first = usable[0];
        if (!first) {
          callback(Object.assign(new Error("no address"), { code: "ENOTFOUND" }), "");
        } else if (options.all) callback(null, usable);
        else callback(null, first.address, first.family);
      },
      (err: Error) => callback(err, ""),
    );
  };
}

export type OutgoingRequest = {
  url: string;
  method?: "POST" | "GET";
  headers?: Record<string, string>;
  body?: string | Uint8Array;
};
export type OutgoingResponse = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** At most RESPONSE_CAP bytes of the body, as text (for the code only; never shown or stored). */
  body: string;
};

function describe(err: unknown, host: string, timeoutMs: number): OutgoingError {
  if (err instanceof OutgoingError) return err;
  const e = err as NodeJS.ErrnoException & { name?: string };
  const code = e?.code ?? "";
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || code === "ENODATA") {
    return new OutgoingError("dns", "dns", { host });
  }
  const timedOut = e?.name === "AbortError" || e?.name === "TimeoutError" || code === "ABORT_ERR";
  if (
    !timedOut &&
    (/CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/i.test(code) ||
      /certificate|tls|ssl/i.test(e?.message ?? ""))
  ) {
    return new OutgoingError("tls", "tls", { host });
  }
  // Refused, reset, unreachable, timed out, or not HTTP at all: one sentence (see the header).
  return new OutgoingError(timedOut ? "timeout" : "connect", "unreachable", {
    host,
    seconds: timeoutMs / 1000,
  });
}

function once(
  req: OutgoingRequest,
  signal: AbortSignal,
  resolve: Resolver,
  policy: TargetPolicy,
): Promise<OutgoingResponse> {
  const u = new URL(req.url);
  const mod = u.protocol === "https:" ? nodeHttps() : nodeHttp();
  return new Promise((settle, reject) => {
    const r = mod.request(
      u,
      {
        method: req.method ?? "POST",
        headers: {
          "User-Agent": "Grapevine alerts",
          ...req.headers,
          ...(req.body !== undefined
            ? { "Content-Length": String(Buffer.byteLength(req.body)) }
            : {}),
        },
        lookup: checkedLookup(resolve, policy) as unknown as typeof dns.lookup,
        signal,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          settle({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_CAP).toString("utf8"),
          });
        };
        res.on("data", (chunk: Buffer) => {
          if (size >= RESPONSE_CAP) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= RESPONSE_CAP) {
            finish();
            res.destroy();
          }
        });
        res.on("end", finish);
        res.on("error", (err) => (done ? undefined : reject(err)));
      },
    );
    r.on("error", reject);
    if (req.body !== undefined) r.write(req.body);
    r.end();
  });
}

/**
 * Sends one request under the rules above. Resolves with the far side's answer, whatever its
 * status; rejects with OutgoingError (refused address, DNS, timeout, TLS, connection, redirect).
 */
export async function sendOutgoing(
  req: OutgoingRequest,
  opts: { timeoutMs?: number; resolve?: Resolver; policy: TargetPolicy },
): Promise<OutgoingResponse> {
  const timeoutMs = opts.timeoutMs ?? OUTGOING_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = req;
  const first = new URL(req.url);
  for (let hop = 0; ; hop++) {
    const u = new URL(current.url);
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new OutgoingError("refused-address", "onlyHttp");
    }
    const host = bareHost(u);
    const refused = net.isIP(host) ? refusedError(u.host, host, opts.policy) : null;
    if (refused) throw refused;
    let res: OutgoingResponse;
    try {
      res = await once(current, signal, opts.resolve ?? systemResolver, opts.policy);
    } catch (err) {
      throw describe(
        signal.aborted ? Object.assign(new Error("timeout"), { name: "TimeoutError" }) : err,
        first.host,
        timeoutMs,
      );
    }
    const location = res.headers.location;
    if (res.status < 300 || res.status > 399 || !location) return res;
    let next: URL;
    try {
      next = new URL(location, u);
    } catch {
      return res;
    }
    if (next.host !== u.host || (next.protocol !== u.protocol && next.protocol !== "https:")) {
      throw new OutgoingError("redirect", "redirectElsewhere", {
        host: first.host,
        status: res.status,
      });
    }
    if (hop >= MAX_REDIRECTS) {
      throw new OutgoingError("redirect", "redirectLoop", {
        host: first.host,
        count: MAX_REDIRECTS,
      });
    }
    const keep = res.status === 307 || res.status === 308;
    current = keep
      ? { ...current, url: next.toString() }
      : { url: next.toString(), method: "GET", headers: current.headers };
  }
}
