/**
 * Outgoing requests of alert channels (ntfy servers, webhooks, push services): the one place that
 * decides where Grapevine may send and how.
 *
 * - http and https only; a 5 s timeout for the whole exchange; a response body is read up to
 *   RESPONSE_CAP bytes and the rest dropped; redirects are followed (at most 3) only on the same
 *   host, never to another one.
 * - Loopback and LAN addresses are allowed (Home Assistant on 192.168.x.x or on the same host).
 *   Link-local and cloud metadata addresses (169.254.0.0/16, fe80::/10, fd00:ec2::254; and the
 *   unspecified 0.0.0.0 / ::) are refused.
 * - After DNS: the request is made with node:http(s) and a `lookup` of ours, which resolves the
 *   name, refuses the request when ANY of its addresses is refused, and hands the checked address
 *   to the socket. The connection goes to the address that was checked (no second resolution a
 *   rebinding DNS server could answer differently); TLS still checks the certificate against the
 *   host name.
 */
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";

export const OUTGOING_TIMEOUT_MS = 5000;
/** Response bytes kept for the delivery list; the rest is not read. */
export const RESPONSE_CAP = 4096;
const MAX_REDIRECTS = 3;

const refused = new net.BlockList();
refused.addSubnet("169.254.0.0", 16, "ipv4");
refused.addSubnet("0.0.0.0", 32, "ipv4");
refused.addSubnet("fe80::", 10, "ipv6");
refused.addAddress("fd00:ec2::254", "ipv6");
refused.addAddress("::", "ipv6");

/** True for an address alerts are never sent to (link-local, cloud metadata, unspecified). */
export function isRefusedAddress(address: string): boolean {
  const family = net.isIP(address);
  if (family === 0) return false;
  return refused.check(address, family === 4 ? "ipv4" : "ipv6");
}

export type OutgoingFailure =
  | "refused-address"
  | "dns"
  | "timeout"
  | "tls"
  | "connect"
  | "redirect";

export class OutgoingError extends Error {
  constructor(
    readonly kind: OutgoingFailure,
    message: string,
  ) {
    super(message);
  }
}

const refusedMessage = (host: string, address: string) =>
  host === address
    ? `${host} is a link-local or cloud metadata address, which alerts are never sent to`
    : `${host} resolves to ${address}, a link-local or cloud metadata address, which alerts are never sent to`;

const bareHost = (u: URL) => u.hostname.replace(/^\[(.*)\]$/, "$1");

/** A host name → its addresses (dns.lookup with all: true; tests pass their own). */
export type Resolver = (host: string) => Promise<dns.LookupAddress[]>;
export const systemResolver: Resolver = (host) => dns.promises.lookup(host, { all: true });

/** Resolves the URL's host and checks every address; throws OutgoingError "refused-address". */
export async function checkTarget(url: string, resolve: Resolver = systemResolver): Promise<void> {
  const u = new URL(url);
  if (u.protocol !== "http:" && u.protocol !== "https:") {
    throw new OutgoingError("refused-address", "Only http:// and https:// addresses are allowed");
  }
  const host = bareHost(u);
  if (net.isIP(host)) {
    if (isRefusedAddress(host))
      throw new OutgoingError("refused-address", refusedMessage(host, host));
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await resolve(host);
  } catch {
    return; // an unknown name is the far side's problem (the test says so), not a refused target
  }
  const bad = addresses.find((a) => isRefusedAddress(a.address));
  if (bad) throw new OutgoingError("refused-address", refusedMessage(host, bad.address));
}

/** A `lookup` for node:http with the address check: the socket connects to the address checked. */
function checkedLookup(resolve: Resolver) {
  return (
    hostname: string,
    options: dns.LookupOptions,
    callback: (err: Error | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    resolve(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => isRefusedAddress(a.address));
        if (bad) {
          callback(new OutgoingError("refused-address", refusedMessage(hostname, bad.address)), "");
          return;
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
  /** At most RESPONSE_CAP bytes of the body, as text. */
  body: string;
};

function describe(err: unknown, host: string, timeoutMs: number): OutgoingError {
  if (err instanceof OutgoingError) return err;
  const e = err as NodeJS.ErrnoException & { name?: string };
  const code = e?.code ?? "";
  if (e?.name === "AbortError" || e?.name === "TimeoutError" || code === "ABORT_ERR") {
    return new OutgoingError(
      "timeout",
      `${host} did not answer within ${timeoutMs / 1000} seconds`,
    );
  }
  if (code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "EAI_NONAME" || code === "ENODATA") {
    return new OutgoingError("dns", `${host} could not be found (DNS)`);
  }
  if (
    /CERT|SSL|TLS|SELF_SIGNED|UNABLE_TO_VERIFY|HOSTNAME_MISMATCH/i.test(code) ||
    /certificate|tls|ssl/i.test(e?.message ?? "")
  ) {
    return new OutgoingError(
      "tls",
      `The secure connection to ${host} failed (TLS: ${code || e.message})`,
    );
  }
  if (code === "ECONNREFUSED")
    return new OutgoingError("connect", `${host} refused the connection`);
  if (code === "ECONNRESET") return new OutgoingError("connect", `${host} closed the connection`);
  if (code === "EHOSTUNREACH" || code === "ENETUNREACH") {
    return new OutgoingError("connect", `${host} cannot be reached from this server`);
  }
  return new OutgoingError(
    "connect",
    `The request to ${host} failed (${code || e?.message || "unknown error"})`,
  );
}

function once(
  req: OutgoingRequest,
  signal: AbortSignal,
  resolve: Resolver,
): Promise<OutgoingResponse> {
  const u = new URL(req.url);
  const mod = u.protocol === "https:" ? https : http;
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
        lookup: checkedLookup(resolve) as unknown as typeof dns.lookup,
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
  opts: { timeoutMs?: number; resolve?: Resolver } = {},
): Promise<OutgoingResponse> {
  const timeoutMs = opts.timeoutMs ?? OUTGOING_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let current = req;
  const first = new URL(req.url);
  for (let hop = 0; ; hop++) {
    const u = new URL(current.url);
    if (u.protocol !== "http:" && u.protocol !== "https:") {
      throw new OutgoingError("refused-address", "Only http:// and https:// addresses are allowed");
    }
    const host = bareHost(u);
    if (net.isIP(host) && isRefusedAddress(host)) {
      throw new OutgoingError("refused-address", refusedMessage(host, host));
    }
    let res: OutgoingResponse;
    try {
      res = await once(current, signal, opts.resolve ?? systemResolver);
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
      throw new OutgoingError(
        "redirect",
        `${first.host} answered ${res.status} with a redirect to another host (${next.host}), which is not followed`,
      );
    }
    if (hop >= MAX_REDIRECTS) {
      throw new OutgoingError(
        "redirect",
        `${first.host} redirected more than ${MAX_REDIRECTS} times`,
      );
    }
    const keep = res.status === 307 || res.status === 308;
    current = keep
      ? { ...current, url: next.toString() }
      : { url: next.toString(), method: "GET", headers: current.headers };
  }
}
