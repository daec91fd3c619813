/**
 * The spoof check (docs/behaviour.md#security): anyone can send a message that claims to come from Amazon, so we
 * believe the From domain only when the receiving mailbox provider says it was authenticated.
 *
 * Which header: the TOP `Authentication-Results` (the first in header order). Receiving servers
 * prepend their trace headers, so the top one is written by the server that delivered the message
 * into the mailbox (mx.google.com for Gmail). Headers lower down were written by earlier hops or
 * by the sender and cannot be trusted.
 *
 * The rule, for the From domain (an Amazon domain by the time this runs):
 * - `dmarc=fail` for the From domain (or with no header.from) → spoofed.
 * - else an aligned `dkim=pass` (signing domain header.d / header.i is the From domain, a parent
 *   or a child of it) → authenticated. A second, broken signature beside a passing aligned one is
 *   not spoofing: that is DMARC's own rule.
 * - else `dmarc=pass` → authenticated (the provider found aligned SPF or DKIM).
 * - else → spoofed: aligned `dkim=fail`/`permerror`, `dkim=none` (unsigned), `neutral`,
 *   `temperror`, a signature only from another domain (e.g. amazonses.com alone), or a header that
 *   says `none`. Amazon signs all of its mail, so an unsigned "Amazon" message is not Amazon's.
 * - No `Authentication-Results` header at all → "absent" (the caller decides; see
 *   src/features/mailbox/ingest.decide.ts: accepted and counted, because a provider that writes
 *   no such header also cannot stop a sender from writing a fake one, so refusing would protect
 *   nothing).
 */

import type { HeaderLine } from "./headers.ts";

export type AuthVerdict = {
  verdict: "pass" | "spoofed" | "absent";
  /** For the log: what decided it, e.g. "dkim=pass header.d=amazon.com (mx.google.com)". */
  detail: string;
};

type ResInfo = { method: string; result: string; props: Record<string, string> };

/** Removes RFC 5322 comments "(...)" (nested), keeping quoted strings intact. */
function stripComments(s: string): string {
  let out = "";
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (quoted) {
      if (depth === 0) out += ch;
      if (ch === "\\" && i + 1 < s.length) {
        if (depth === 0) out += s[i + 1];
        i++;
      } else if (ch === '"') quoted = false;
      continue;
    }
    if (ch === '"' && depth === 0) {
      quoted = true;
      out += ch;
    } else if (ch === "(") depth++;
    else if (ch === ")" && depth > 0) depth--;
    else if (depth === 0) out += ch;
    else if (ch === "\\") i++;
  }
  return out;
}

/** Splits on ";" outside quoted strings. */
function splitResults(s: string): string[] {
  const parts: string[] = [];
  let cur = "";
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch === '"') quoted = !quoted;
    if (ch === ";" && !quoted) {
      parts.push(cur);
      cur = "";
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim());
}

/** Parses one Authentication-Results value (RFC 8601) into its authserv-id and results. */
export function parseAuthenticationResults(value: string): {
  authservId: string;
  results: ResInfo[];
} {
  const parts = splitResults(stripComments(value.replace(/\r?\n/g, " ")));
  const authservId = (parts.shift() ?? "").split(/\s+/)[0] ?? "";
  const results: ResInfo[] = [];
  for (const part of parts) {
    const m = /^([a-z0-9_.-]+)\s*(?:\/\s*\d+\s*)?=\s*([a-z0-9_-]+)(.*)$/is.exec(part);
    if (!m) continue; // "none" and anything unparseable carry no result
    const props: Record<string, string> = {};
    const propRe = /([a-z0-9_-]+\.[a-z0-9_.-]+)\s*=\s*("(?:[^"\\]|\\.)*"|[^\s;]+)/gi;
    for (let p = propRe.exec(m[3] ?? ""); p; p = propRe.exec(m[3] ?? "")) {
      const raw = p[2] ?? "";
      props[(p[1] ?? "").toLowerCase()] = raw.startsWith('"')
        ? raw.slice(1, -1).replace(/\\(.)/g, "$1")
        : raw;
    }
    results.push({ method: m[1]!.toLowerCase(), result: m[2]!.toLowerCase(), props });
  }
  return { authservId, results };
}

/** Registry suffixes under which a single label is an organisation (amazon.co.uk, amazon.com.au). */
const TWO_LABEL_SUFFIXES = new Set([
  "co.uk",
  "org.uk",
  "com.au",
  "co.jp",
  "com.br",
  "com.mx",
  "com.tr",
  "co.za",
  "com.sg",
  "co.in",
  "com.be",
  "com.cn",
  "co.nz",
]);

function isOrganisationDomain(d: string): boolean {
  const labels = d.split(".");
  if (labels.length < 2) return false;
  return !(labels.length === 2 && TWO_LABEL_SUFFIXES.has(d));
}

/** The domain of a header.d or header.i value ("@amazon.com", "user@sub.amazon.com", "amazon.com"). */
function signingDomain(v: string | undefined): string | null {
  if (!v) return null;
  const d = v
    .slice(v.lastIndexOf("@") + 1)
    .toLowerCase()
    .replace(/\.$/, "");
  return d === "" ? null : d;
}

/** Relaxed alignment: the same domain, or one is a subdomain of the other (an organisation). */
export function aligned(signing: string, from: string): boolean {
  const a = signing.toLowerCase();
  const b = from.toLowerCase();
  if (a === b) return true;
  if (b.endsWith(`.${a}`)) return isOrganisationDomain(a);
  if (a.endsWith(`.${b}`)) return isOrganisationDomain(b);
  return false;
}

const describe = (r: ResInfo, d: string | null, authservId: string) =>
  `${r.method}=${r.result}${d ? ` for ${d}` : ""} (${authservId || "unknown server"})`;

/**
 * Checks the top Authentication-Results of a message for its From domain (see the file comment).
 * `headers` are in message order with lower-cased names.
 */
export function checkAuthentication(
  headers: readonly HeaderLine[],
  fromDomain: string,
): AuthVerdict {
  const top = headers.find((h) => h.name === "authentication-results");
  if (!top) return { verdict: "absent", detail: "no Authentication-Results header" };
  const from = fromDomain.toLowerCase();
  const { authservId, results } = parseAuthenticationResults(top.value);

  const dmarc = results.filter((r) => {
    if (r.method !== "dmarc") return false;
    const hf = signingDomain(r.props["header.from"]);
    return hf === null || aligned(hf, from);
  });
  const dmarcFail = dmarc.find((r) => r.result === "fail");
  if (dmarcFail) return { verdict: "spoofed", detail: describe(dmarcFail, from, authservId) };

  const dkim = results
    .filter((r) => r.method === "dkim")
    .map((r) => ({ r, d: signingDomain(r.props["header.d"] ?? r.props["header.i"]) }));
  const alignedDkim = dkim.filter((x) => x.d !== null && aligned(x.d, from));
  const pass = alignedDkim.find((x) => x.r.result === "pass");
  if (pass) return { verdict: "pass", detail: describe(pass.r, pass.d, authservId) };
  const dmarcPass = dmarc.find((r) => r.result === "pass");
  if (dmarcPass) return { verdict: "pass", detail: describe(dmarcPass, from, authservId) };

  const failed = alignedDkim[0] ?? dkim.find((x) => x.d === null);
  if (failed)
    return { verdict: "spoofed", detail: describe(failed.r, failed.d ?? from, authservId) };
  const others = dkim.map((x) => `${x.r.method}=${x.r.result} for ${x.d ?? "?"}`).join(", ");
  return {
    verdict: "spoofed",
    detail: `no DKIM signature from ${from}${others ? ` (only ${others})` : ""} (${authservId || "unknown server"})`,
  };
}
