/**
 * POST /api/imap/import's body: the upload limit (a declared Content-Length, a body that grows
 * past it) and multipart bodies sent in small chunks, every boundary split.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { Hono } from "hono";
import { mailImportRoutes } from "../../src/http/routes/mail-import.routes.ts";
import type { AppEnv } from "../../src/http/types.ts";
import { AppError } from "../../src/util/errors.ts";
import { createHarness, type Harness } from "../harness.ts";
import { chunked } from "../support/chunked.ts";
import type { ErrorBody } from "./helpers.ts";
import { form, importHelpers, mbox, vine } from "./mail-import-helpers.ts";
import { plainMail } from "./mail-messages.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const enc = new TextEncoder();
const { orders, tmpEntries, upload } = importHelpers(() => h);

describe("the upload limit", () => {
  /** The route alone with a tiny limit, behind a stand-in for requireAuth. */
  function smallApp(maxBytes: number) {
    const app = new Hono<AppEnv>();
    app.use("*", async (c, next) => {
      c.set("user", { id: 1 } as AppEnv["Variables"]["user"]);
      await next();
    });
    app.route("/", mailImportRoutes({ imports: h.services.mailImport, maxBytes }));
    app.onError((err, c) =>
      err instanceof AppError
        ? c.json({ error: err.message }, err.status)
        : c.json({ error: String(err) }, 500),
    );
    return app;
  }

  test("a declared Content-Length over the limit: 413 before reading", async () => {
    const res = await smallApp(1000).request("/", {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=b", "content-length": "5000" },
      body: "x".repeat(5000),
    });
    expect(res.status).toBe(413);
    expect(((await res.json()) as ErrorBody).error).toMatch(/too large: the limit is 1000 bytes/);
  });

  test("a streamed body (no Content-Length) over the limit: 413, temp files removed", async () => {
    await h.register(); // user 1
    const fd = form([
      ["a.mbox", mbox([plainMail({ from: "a@b.example", subject: "s", body: "y".repeat(4000) })])],
    ]);
    const bytes = new Uint8Array(await new Response(fd).arrayBuffer());
    const type = new Response(fd).headers.get("content-type")!;
    const res = await smallApp(2000).request("/", {
      method: "POST",
      headers: { "content-type": type },
      body: chunked(bytes, 512),
    });
    expect(res.status).toBe(413);
    expect(tmpEntries()).toEqual([]);
  });
});

/* ------------------------------------------------------------------------------------------------
 * The streaming multipart parser
 * --------------------------------------------------------------------------------------------- */

describe("multipart bodies", () => {
  const B = "----WebKitFormBoundary7MA4YWxkTrZu0gW";
  const message = vine("777-0000001-0000001", "B0LOOKALIK", "Look-alike", "look@amazon.com");
  // A file whose text holds boundary look-alikes, another field, a file named in RFC 5987 form.
  const eml = `${message}\r\n--${B.slice(0, 10)} not a boundary\r\n\r\n-${B}\r\n`;
  const BODY =
    `preamble to ignore\r\n--${B}\r\n` +
    `Content-Disposition: form-data; name="files"; filename="a.eml"\r\nContent-Type: message/rfc822\r\n\r\n` +
    `${eml}\r\n--${B}\r\n` +
    `Content-Disposition: form-data; name="note"\r\n\r\nhello\r\n` +
    `--${B}\r\n` +
    `Content-Disposition: form-data; name="files"; filename*=UTF-8''K%C3%A4se%20box.mbox\r\n\r\n` +
    `${mbox([vine("777-0000002-0000001", "B0LOOKALI2", "Second", "look2@amazon.com")])}\r\n--${B}--\r\nepilogue`;

  for (const size of [1, 7, 64, 1 << 16]) {
    test(`boundary look-alikes inside a file, other fields, sent in chunks of ${size} bytes`, async () => {
      const u = await h.register();
      const res = await upload(u.token, chunked(enc.encode(BODY), size), {
        "content-type": `multipart/form-data; boundary=${B}`,
      });
      expect(res.status).toBe(200);
      expect(res.body.messagesRead).toBe(2);
      expect(
        orders(u.userid)
          .map((o) => o.amazonordernumber)
          .sort(),
      ).toEqual(["777-0000001-0000001", "777-0000002-0000001"]);
      expect(tmpEntries()).toEqual([]);
    });
  }
});
