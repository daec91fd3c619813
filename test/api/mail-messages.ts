/**
 * Raw test messages for the mail pipeline tests (not a test file itself), written by the team and
 * modelled on Amazon's 2025 US templates ("Ordered:", "Shipped:", "Delivered:"...) with the
 * Authentication-Results header Gmail adds on top.
 */
import type { MailKind } from "../../src/mail/amazon/types.ts";

/** `price: null`: the item line shows no price (a mail whose amounts cannot be read). */
export type TestItem = { name: string; asin: string | null; price: string | null };
export type MailSpec = {
  kind: MailKind;
  order?: string;
  items?: readonly TestItem[];
  total?: string;
  tracking?: string;
  carrier?: string;
  /** The estimate line as written, e.g. "Arriving Thursday, January 16". */
  arriving?: string;
  /** null: no Message-ID header. */
  messageId?: string | null;
  from?: string;
  /** The top Authentication-Results value; null: no such header. */
  auth?: string | null;
  extraHeaders?: string[];
  date?: string;
  /** Bytes of filler text in the body (for large mailboxes). */
  padding?: number;
};

export const GMAIL_PASS =
  "mx.google.com;\r\n       dkim=pass header.i=@amazon.com header.s=eaxkvsyelrnxjh4cicqyjjmtjpetuwjx header.b=bX9XNvUN;\r\n       spf=pass (google.com: domain of 0100@bounces.amazon.com designates 54.240.13.143 as permitted sender) smtp.mailfrom=0100@bounces.amazon.com;\r\n       dmarc=pass (p=QUARANTINE sp=QUARANTINE dis=NONE) header.from=amazon.com";

/** 2025 subjects name the first item; with no item named, the 2020 "order #" subjects. */
function subjectOf(kind: MailKind, items: readonly TestItem[], order: string): string {
  if (kind === "other") return "Jane, recommendations for you";
  if (kind === "canceled") {
    return items.length > 0
      ? `Partial item(s) cancellation from your Amazon.com order #${order}`
      : `Your Amazon.com order #${order} has been canceled`;
  }
  if (items.length === 0) {
    return {
      ordered: `Your Amazon.com order #${order}`,
      shipped: `Your Amazon.com order #${order} has shipped`,
      "out-for-delivery": `Out for delivery: Your Amazon.com order #${order}`,
      delivered: `Delivered: Your Amazon.com order #${order}`,
      delayed: `Delivery update: Your Amazon.com order #${order}`,
    }[kind];
  }
  const first = items[0]!.name;
  const t = first.length > 28 ? `${first.slice(0, 28)}...` : first;
  const named = items.length > 1 ? `"${t}" and ${items.length - 1} more item` : `"${t}"`;
  const lead = {
    ordered: "Ordered",
    shipped: "Shipped",
    "out-for-delivery": "Out for delivery",
    delivered: "Delivered",
    delayed: "Delivery update",
  }[kind];
  return `${lead}: ${named}`;
}

const HEADLINE: Record<MailKind, string> = {
  ordered: "Thanks for your order, Jane!",
  shipped: "Your package has shipped!",
  "out-for-delivery": "Your package is out for delivery",
  delivered: "Your package was delivered!",
  canceled: "Your cancellation request was received",
  delayed: "Your package is running late",
  other: "Top picks for you",
};

const escapeHtml = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** One raw message (CRLF line ends) as an Amazon-style mail. */
export function amazonMail(spec: MailSpec): string {
  const order = spec.order ?? "113-0000000-0000000";
  const items = spec.items ?? [];
  const rows: string[] = [`<tr><td><h1>${HEADLINE[spec.kind]}</h1></td></tr>`];
  if (spec.kind !== "other") {
    if (spec.arriving) rows.push(`<tr><td>${escapeHtml(spec.arriving)}</td></tr>`);
    else if (spec.kind === "ordered") rows.push("<tr><td>Arriving Friday, January 17</td></tr>");
    rows.push("<tr><td>Ship to: Jane Doe, SPRINGFIELD, IL</td></tr>");
    rows.push(
      `<tr><td>Order # <a href="https://www.amazon.com/gp/css/order-details?orderID=${order}&amp;ref_=pe_od">${order}</a></td></tr>`,
    );
    if (spec.tracking) {
      rows.push(
        `<tr><td>Carrier: ${spec.carrier ?? "Amazon"} Tracking number: ${spec.tracking}</td></tr>`,
      );
    }
    for (const it of items) {
      const url = it.asin
        ? `https://www.amazon.com/dp/${it.asin}?ref_=pe_ordered`
        : "https://www.amazon.com/gp/your-account";
      rows.push(
        `<tr><td><a class="item" href="${url}"><img src="https://m.media-amazon.com/images/I/${it.asin ?? "none"}.jpg" alt="${escapeHtml(it.name)}"></a></td>` +
          `<td><a class="item" href="${url}">${escapeHtml(it.name)}</a><br>Quantity: 1${it.price === null ? "" : `<br><span class="price">$${it.price}</span>`}</td></tr>`,
      );
    }
    if (spec.total !== undefined) rows.push(`<tr><td>Order Total: $${spec.total}</td></tr>`);
  } else {
    rows.push(
      '<tr><td><a href="https://www.amazon.com/dp/B0RECOMM01?ref_=pd_rec">Smart Plug 4-Pack</a> $19.99</td></tr>',
    );
  }
  if (spec.padding)
    rows.push(
      `<tr><td>${"Lorem ipsum dolor sit amet. ".repeat(Math.ceil(spec.padding / 28))}</td></tr>`,
    );
  rows.push("<tr><td>We hope to see you again soon.</td></tr>");
  const html = `<!doctype html><html><body><table>\r\n${rows.join("\r\n")}\r\n</table></body></html>`;

  const headers: string[] = ["Delivered-To: jane@gmail.com"];
  if (spec.auth !== null) headers.push(`Authentication-Results: ${spec.auth ?? GMAIL_PASS}`);
  headers.push(...(spec.extraHeaders ?? []));
  headers.push(
    `From: "Amazon.com" <${spec.from ?? (spec.kind === "ordered" ? "auto-confirm@amazon.com" : "shipment-tracking@amazon.com")}>`,
    "To: jane@gmail.com",
    `Subject: ${subjectOf(spec.kind, items, order)}`,
    `Date: ${spec.date ?? "Tue, 14 Jan 2025 15:04:05 +0000"}`,
  );
  if (spec.messageId !== null) {
    headers.push(`Message-ID: <${spec.messageId ?? `${crypto.randomUUID()}@email.amazonses.com`}>`);
  }
  headers.push(
    "MIME-Version: 1.0",
    "Content-Type: text/html; charset=UTF-8",
    "Content-Transfer-Encoding: 8bit",
  );
  return `${headers.join("\r\n")}\r\n\r\n${html}\r\n`;
}

/** A plain text message from anyone. */
export function plainMail(spec: {
  from: string;
  subject: string;
  messageId?: string | null;
  body?: string;
}): string {
  const headers = [
    "Authentication-Results: mx.google.com; dkim=pass header.i=@example.com; dmarc=pass header.from=example.com",
    `From: Someone <${spec.from}>`,
    "To: jane@gmail.com",
    `Subject: ${spec.subject}`,
    "Date: Wed, 15 Jan 2025 09:00:00 +0000",
  ];
  if (spec.messageId !== null)
    headers.push(`Message-ID: <${spec.messageId ?? crypto.randomUUID()}>`);
  headers.push("MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8");
  return `${headers.join("\r\n")}\r\n\r\n${(spec.body ?? "Hello there.\n").replace(/\r?\n/g, "\r\n")}`;
}
