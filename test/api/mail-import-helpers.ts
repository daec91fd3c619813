/**
 * What the import test files share: mail in mbox form, the multipart form of files, a Vine order
 * confirmation, and (bound to the file's harness) the upload, the user's orders and what is left
 * in DATA_DIR/tmp.
 */
import fs from "node:fs";
import path from "node:path";
import type { IngestSummary, Order } from "../../src/contract/index.ts";
import type { Harness } from "../harness.ts";
import { call, type ErrorBody } from "./helpers.ts";
import { amazonMail } from "./mail-messages.ts";

/** Messages in mbox form: a postmark before each, "From " body lines quoted, LF line ends. */
export function mbox(messages: string[]): string {
  return messages
    .map((m, i) => {
      const body = m.replace(/\r\n/g, "\n").replace(/^(>*From )/gm, ">$1");
      return `From 18${String(i).padStart(17, "0")}@xxx Tue Jan 14 15:04:0${i % 10} +0000 2025\n${body}${body.endsWith("\n") ? "" : "\n"}\n`;
    })
    .join("");
}

export const form = (files: [string, string | Uint8Array][], extra: [string, string][] = []) => {
  const fd = new FormData();
  for (const [name, value] of extra) fd.append(name, value);
  for (const [name, content] of files) fd.append("files", new File([content as BlobPart], name));
  return fd;
};

export const vine = (order: string, asin: string, name: string, id: string) =>
  amazonMail({
    kind: "ordered",
    order,
    items: [{ name, asin, price: "0.00" }],
    total: "0.00",
    messageId: id,
  });

/** The helpers that use the harness; `harness` returns the current test's. */
export function importHelpers(harness: () => Harness) {
  const orders = (userId: number): Order[] =>
    harness().services.orders.list(userId, {
      status: "all",
      q: "",
      sort: "oldest",
      limit: 500,
      offset: 0,
    }).orders;
  const tmpEntries = () => {
    try {
      return fs.readdirSync(path.join(harness().config.dataDir, "tmp"));
    } catch {
      return [];
    }
  };
  const upload = (token: string, body: BodyInit, headers: Record<string, string> = {}) =>
    call<IngestSummary & Partial<ErrorBody>>(harness(), "POST", "/api/imap/import", {
      token,
      raw: body,
      headers,
    });
  return { orders, tmpEntries, upload };
}
