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

const paidOrder = (order: string) =>
  amazonMail({
    kind: "ordered",
    order,
    items: [{ name: "Paid Blender", asin: "B0PAID0001", price: "49.99" }],
    total: "49.99",
  });

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
    expect(await put.json()).toEqual({ success: true, importMode: "all" });
    expect((await userData(u.token)).importMode).toBe("all");
    const res = await importEml(u.token, paidOrder("111-0000000-0000002"));
    expect(((await res.json()) as { ordersCreated: number }).ordersCreated).toBe(1);
    const orders = (await (await h.req("GET", "/api/orders", { token: u.token })).json()) as Array<{
      productname: string;
      estimatedretailvalue: string | null;
    }>;
    expect(orders.map((o) => o.productname)).toEqual(["Paid Blender"]);
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
