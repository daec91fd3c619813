import { afterAll, describe, expect, test } from "bun:test";
import { createHarness } from "../harness.ts";
import { amazonMail } from "./mail-messages.ts";

const h = createHarness();
afterAll(() => h.close());

const userData = async (token: string) =>
  (await (await h.req("GET", "/api/user/data", { token })).json()) as { importMode: string };

function importEml(token: string, raw: string) {
  const boundary = "gvtest";
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="order.eml"\r\n` +
    `Content-Type: message/rfc822\r\n\r\n${raw}\r\n--${boundary}--\r\n`;
  return h.req("POST", "/api/imap/import", {
    token,
    raw: body,
    headers: { "content-type": `multipart/form-data; boundary=${boundary}` },
  });
}

const paidOrder = (order: string, date?: string) =>
  amazonMail({
    kind: "ordered",
    order,
    items: [{ name: "Paid Blender", asin: "B0PAID0001", price: "49.99" }],
    total: "49.99",
    messageId: `${order}@amazon.com`,
    ...(date ? { date } : {}),
  });

type Summary = { messagesRead: number; ordersCreated: number; skipped: Record<string, number> };
const emailsScanned = async (token: string) =>
  ((await (await h.req("GET", "/api/user/data", { token })).json()) as { emailsscanned: number })
    .emailsscanned;

describe("import mode (Vine orders only, or all Amazon orders)", () => {
  test("defaults to Vine only: a paid order is skipped as not-vine", async () => {
    const u = await h.register();
    expect((await userData(u.token)).importMode).toBe("vine");
    const res = await importEml(u.token, paidOrder("111-0000000-0000001"));
    expect(res.status).toBe(200);
    const summary = (await res.json()) as {
      ordersCreated: number;
      skipped: Record<string, number>;
    };
    expect(summary.ordersCreated).toBe(0);
    expect(summary.skipped["not-vine"]).toBe(1);
  });

  test("switched to all: the same kind of paid order becomes an order", async () => {
    const u = await h.register();
    const put = await h.req("PUT", "/api/imap/import-mode", {
      token: u.token,
      body: { importMode: "all" },
    });
    expect(put.status).toBe(200);
    expect(await put.json()).toEqual({
      success: true,
      importMode: "all",
      reread: { messages: 0, daysBack: null },
    });
    expect((await userData(u.token)).importMode).toBe("all");
    const res = await importEml(u.token, paidOrder("111-0000000-0000002"));
    expect(((await res.json()) as { ordersCreated: number }).ordersCreated).toBe(1);
    const orders = (await (await h.req("GET", "/api/orders", { token: u.token })).json()) as Array<{
      productname: string;
      estimatedretailvalue: string | null;
    }>;
    expect(orders.map((o) => o.productname)).toEqual(["Paid Blender"]);
  });

  test("mail skipped only because of Vine orders only is imported when the files come again under All", async () => {
    const u = await h.register();
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toUTCString();
    const threeDaysAgo = new Date(Date.now() - 3 * 86_400_000).toUTCString();
    const files = [
      paidOrder("111-0000000-0000101", threeDaysAgo),
      paidOrder("111-0000000-0000102", tenDaysAgo),
    ];
    for (const raw of files) {
      const s = (await (await importEml(u.token, raw)).json()) as Summary;
      expect(s.skipped).toEqual({ "not-vine": 1 });
    }
    const scanned = await emailsScanned(u.token);
    expect(scanned).toBe(2);

    const put = await h.req("PUT", "/api/imap/import-mode", {
      token: u.token,
      body: { importMode: "all" },
    });
    // Two messages to read again; the older is 10 days old: the 14-day period reaches it.
    expect(((await put.json()) as { reread: unknown }).reread).toEqual({
      messages: 2,
      daysBack: 14,
    });

    for (const raw of files) {
      const s = (await (await importEml(u.token, raw)).json()) as Summary;
      expect(s).toMatchObject({ messagesRead: 1, ordersCreated: 1, skipped: {} });
    }
    const orders = (await (await h.req("GET", "/api/orders", { token: u.token })).json()) as Array<{
      amazonordernumber: string;
    }>;
    expect(orders.map((o) => o.amazonordernumber).sort()).toEqual([
      "111-0000000-0000101",
      "111-0000000-0000102",
    ]);
    // Read again, not counted again; and now they are plainly already read.
    expect(await emailsScanned(u.token)).toBe(scanned);
    const again = (await (await importEml(u.token, files[0]!)).json()) as Summary;
    expect(again).toMatchObject({ ordersCreated: 0, skipped: { duplicate: 1 } });
    const back = await h.req("PUT", "/api/imap/import-mode", {
      token: u.token,
      body: { importMode: "all" },
    });
    expect(((await back.json()) as { reread: unknown }).reread).toEqual({
      messages: 0,
      daysBack: null,
    });
  });

  test("switching back to Vine orders only offers nothing to read again", async () => {
    const u = await h.register();
    await importEml(u.token, paidOrder("111-0000000-0000201"));
    const put = await h.req("PUT", "/api/imap/import-mode", {
      token: u.token,
      body: { importMode: "vine" },
    });
    expect(((await put.json()) as { reread: unknown }).reread).toEqual({
      messages: 0,
      daysBack: null,
    });
    const s = (await (
      await importEml(u.token, paidOrder("111-0000000-0000201"))
    ).json()) as Summary;
    expect(s.skipped).toEqual({ duplicate: 1 });
  });

  test("a bad value is a 400 that changes nothing; no token is a 401", async () => {
    const u = await h.register();
    for (const body of [{ importMode: "some" }, {}, { importMode: 1 }]) {
      const res = await h.req("PUT", "/api/imap/import-mode", { token: u.token, body });
      expect(res.status).toBe(400);
      expect(((await res.json()) as { error: string }).error).toContain("importMode");
    }
    expect((await userData(u.token)).importMode).toBe("vine");
    expect(
      (await h.req("PUT", "/api/imap/import-mode", { body: { importMode: "all" } })).status,
    ).toBe(401);
  });

  test("one user's setting does not change another's", async () => {
    const a = await h.register();
    const b = await h.register();
    await h.req("PUT", "/api/imap/import-mode", { token: a.token, body: { importMode: "all" } });
    expect((await userData(b.token)).importMode).toBe("vine");
  });
});
