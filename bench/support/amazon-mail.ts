/**
 * The Amazon mail the mailbox benchmarks read (backfill, mime, reader): Vine orders in groups of
 * five messages, three order confirmations, then a shipped mail for the first and a delivered
 * mail for the second of them, each one $0.00 item, distinct order numbers and Message-IDs, with
 * 8–40 KB of padding text (Amazon's real mail is 10–40 KB). Built with test/api/mail-messages.ts.
 */
import type { MailKind } from "../../src/mail/amazon/types.ts";
import { amazonMail } from "../../test/api/mail-messages.ts";

const ITEMS = [
  "Wireless Earbuds",
  "Ceramic Pour-Over Coffee Dripper",
  "Garden Hose Nozzle",
  "Silicone Kitchen Utensil Set",
  "USB-C Charging Cable 2-Pack",
  "LED Desk Lamp with Clamp",
  "Stainless Steel Water Bottle",
  "Bamboo Cutting Board",
];

export function benchOrderNumber(id: number): string {
  return `114-${String(1_000_000 + id).slice(-7)}-${String((id * 7919 + 13) % 10_000_000).padStart(7, "0")}`;
}

/** Message `a` of the run (CRLF line ends), its kind and order number; `rand` sizes the padding. */
export function benchAmazonMail(
  a: number,
  date: Date,
  rand: () => number,
): { raw: Buffer; kind: MailKind; order: string } {
  const group = Math.floor(a / 5);
  const r = a % 5;
  const id = r < 3 ? group * 3 + r : group * 3 + (r - 3);
  const kind: MailKind = r < 3 ? "ordered" : r === 3 ? "shipped" : "delivered";
  const order = benchOrderNumber(id);
  const raw = amazonMail({
    kind,
    order,
    items: [
      {
        name: `${ITEMS[id % ITEMS.length]} ${id}`,
        asin: `B0${id.toString(36).toUpperCase().padStart(8, "0")}`,
        price: "0.00",
      },
    ],
    total: kind === "ordered" ? "0.00" : undefined,
    tracking: kind === "shipped" ? `TBA${String(300_000_000_000 + id)}` : undefined,
    carrier: kind === "shipped" ? "Amazon" : undefined,
    arriving: kind === "shipped" ? "Arriving Friday, January 17" : undefined,
    messageId: `bench-${kind}-${id}.${a}@email.amazon.com`,
    date: date.toUTCString(),
    padding: 8 * 1024 + Math.floor(rand() * 32 * 1024),
  });
  return { raw: Buffer.from(raw.replace(/\r?\n/g, "\r\n")), kind, order };
}
