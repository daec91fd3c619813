/**
 * Amazon's own sending domains. A message counts as Amazon's only when its From domain is one of
 * these or a subdomain of one (marketplace.amazon.com, bounces.amazon.co.uk…), by exact match or
 * dot-suffix match: `amazon.com.evil.io` and `notamazon.com` are not Amazon's.
 *
 * Deliberately absent: amazonses.com (Amazon SES sends for anyone who pays for it) and
 * amazonaws.com (anyone's servers). Whether the message really came from the domain is the
 * spoof check's business (Authentication-Results, in the pipeline); this list only says which
 * domains are worth checking.
 */
import type { Marketplace } from "./types.ts";

export const AMAZON_SENDER_DOMAINS = [
  "amazon.com",
  "amazon.ca",
  "amazon.com.mx",
  "amazon.com.br",
  "amazon.co.uk",
  "amazon.de",
  "amazon.fr",
  "amazon.it",
  "amazon.es",
  "amazon.nl",
  "amazon.se",
  "amazon.pl",
  "amazon.com.be",
  "amazon.com.tr",
  "amazon.ie",
  "amazon.ae",
  "amazon.sa",
  "amazon.eg",
  "amazon.in",
  "amazon.co.jp",
  "amazon.com.au",
  "amazon.sg",
] as const;

export type AmazonDomain = (typeof AMAZON_SENDER_DOMAINS)[number];

const MARKETPLACE_OF: Partial<Record<AmazonDomain, Marketplace>> = {
  "amazon.com": "US",
  "amazon.co.uk": "UK",
  "amazon.ca": "CA",
  "amazon.de": "DE",
  "amazon.it": "IT",
  "amazon.fr": "FR",
  "amazon.es": "ES",
  "amazon.co.jp": "JP",
  "amazon.com.au": "AU",
};

/** Host names are letters, digits, dots and dashes; anything else is not a domain we trust. */
const HOST_SHAPE = /^[a-z0-9.-]{1,253}$/;

/** The Amazon domain a host name belongs to (exact or dot-suffix match), or null. */
export function amazonDomainOf(host: string): AmazonDomain | null {
  // Every link of a message names the same few hosts: answer repeats from a small memo.
  const known = memo.get(host);
  if (known !== undefined) return known;
  const d = domainOfHost(host);
  if (memo.size >= MEMO_MAX) memo.clear();
  memo.set(host, d);
  return d;
}

const MEMO_MAX = 512;
const memo = new Map<string, AmazonDomain | null>();
const EXACT = new Set<string>(AMAZON_SENDER_DOMAINS);

function domainOfHost(host: string): AmazonDomain | null {
  let h = host.trim().toLowerCase();
  if (h.endsWith(".")) h = h.slice(0, -1);
  if (!HOST_SHAPE.test(h) || h.startsWith(".") || h.includes("..")) return null;
  if (EXACT.has(h)) return h as AmazonDomain;
  // Longest first, so "amazon.com.au" wins over "amazon.com" (which it does not end with anyway,
  // but a list edit must never make the order matter).
  let best: AmazonDomain | null = null;
  for (const d of AMAZON_SENDER_DOMAINS) {
    const dot = h.length - d.length - 1;
    if (dot > 0 && h.charCodeAt(dot) === 46 && h.endsWith(d)) {
      if (!best || d.length > best.length) best = d;
    }
  }
  return best;
}

/** The domain part of an e-mail address (after the last "@"), lower-cased; null when absent. */
export function domainOfAddress(address: string): string | null {
  const at = address.lastIndexOf("@");
  if (at < 1 || at === address.length - 1) return null;
  return address
    .slice(at + 1)
    .trim()
    .toLowerCase();
}

/** True only for addresses at Amazon's own sending domains (see the list above). */
export function isAmazonSender(address: string | null | undefined): boolean {
  if (!address) return false;
  const domain = domainOfAddress(address);
  return domain !== null && amazonDomainOf(domain) !== null;
}

/** The Vine marketplace of an Amazon domain (US, UK, DE, FR, IT, ES, JP, CA, AU); else "unknown". */
export function marketplaceOfDomain(domain: AmazonDomain | null): Marketplace {
  return (domain && MARKETPLACE_OF[domain]) || "unknown";
}

/**
 * Amazon's order senders, by the part of the address before "@" (any Amazon domain), and the
 * kind of mail each sends when the subject and body say nothing the reader understands:
 * order confirmations, shipping confirmations, or "update" (delivered, delayed,
 * canceled: the sender alone does not tell which). Sources: the senders of the real samples in
 * test/fixtures/mail/real/ and ../shared/corpus/emails/locales.md.
 */
export type SenderRole = "ordered" | "shipped" | "update";
const ORDER_SENDERS: Record<string, SenderRole> = {
  "auto-confirm": "ordered",
  bestellbestaetigung: "ordered",
  "conferma-ordine": "ordered",
  "confirmation-commande": "ordered",
  "auto-bevestiging": "ordered",
  "shipment-tracking": "shipped",
  "ship-confirm": "shipped",
  versandbestaetigung: "shipped",
  "conferma-spedizione": "shipped",
  "confirmar-envio": "shipped",
  "verzending-volgen": "shipped",
  "order-update": "update",
  "update-bestelling": "update",
};

/** The role of an Amazon order sender ("auto-confirm@amazon.es" → "ordered"); else null. */
export function senderRole(address: string | null | undefined): SenderRole | null {
  if (!address || !isAmazonSender(address)) return null;
  const local = address.slice(0, address.lastIndexOf("@")).trim().toLowerCase();
  return ORDER_SENDERS[local] ?? null;
}
