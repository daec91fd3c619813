/**
 * GET /api/first-screen: the signed-in first screen drawn on the server by the web app itself
 * (dist/render/, built by `bun run build`), through the real app with the user's own requests.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { FIRST_SCREEN_PATH } from "../../src/contract/constants.ts";
import { firstCardCount } from "../../web/lib/order-list-first.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call } from "./helpers.ts";

let h: Harness;
let anna: { token: string };
let ben: { token: string };

const PHONE = { width: 390, height: 844 };

function screenUrl(
  path: string,
  search = "",
  opts: { language?: string; width?: number; height?: number } = {},
) {
  const q = new URLSearchParams({
    path,
    search,
    language: opts.language ?? "en",
    width: String(opts.width ?? PHONE.width),
    height: String(opts.height ?? PHONE.height),
  });
  return `${FIRST_SCREEN_PATH}?${q}`;
}

async function addOrder(token: string, productname: string, status = "Ordered") {
  const res = await h.req("POST", "/api/orders", {
    token,
    body: {
      productname,
      asin: `B0${productname.replace(/\W/g, "").slice(0, 8).padEnd(8, "X")}`,
      status,
    },
  });
  expect(res.status).toBe(201);
}

/** The product names of the cards in a drawn page, in order. */
const cardTitles = (html: string) =>
  [
    ...html.matchAll(/<h3 id="order-\d+-title" class="order-card-title"><a [^>]*>([^<]*)<\/a>/g),
  ].map((m) => m[1]);

beforeAll(async () => {
  h = createHarness();
  anna = await h.register("anna-first@example.com", "secret1", "Anna");
  ben = await h.register("ben-first@example.com", "secret1", "Ben");
  for (let i = 1; i <= 12; i++) await addOrder(anna.token, `Anna Kettle ${i}`);
  await addOrder(ben.token, "Ben Secret Lamp");
  for (const u of [anna, ben]) {
    const res = await h.req("PATCH", "/api/user/timezone", {
      token: u.token,
      body: { timezone: "Europe/Berlin" },
    });
    expect(res.status).toBe(200);
  }
});
afterAll(async () => {
  await h.close();
});

describe("the orders list drawn by the server", () => {
  test("shows the user's newest orders, as many cards as the phone's first screen, and nobody else's", async () => {
    const res = await h.req("GET", screenUrl("/orders", "status=all"), { token: anna.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html = await res.text();
    const shown = firstCardCount(PHONE);
    expect(cardTitles(html)).toEqual(
      Array.from({ length: shown }, (_, i) => `Anna Kettle ${12 - i}`),
    );
    expect(html).not.toContain("Ben Secret Lamp");
    // The whole page: the header with the user's menu, the list's toolbar, the footer.
    expect(html).toContain("anna-first@example.com");
    expect(html).toContain('aria-label="Search orders"');
    expect(html).toContain('class="app-footer"');
  });

  test("a wider window gets more cards; the filter in the address is the list's", async () => {
    await addOrder(ben.token, "Ben Shipped Fan", "Shipped");
    const wide = await call(h, "GET", screenUrl("/orders", "", { width: 1280, height: 1000 }), {
      token: anna.token,
    });
    const wider = firstCardCount({ width: 1280, height: 1000 });
    expect(wider).toBeGreaterThan(firstCardCount(PHONE));
    expect(cardTitles(String(wide.body))).toHaveLength(wider);
    const shipped = await call(h, "GET", screenUrl("/orders", "status=Shipped"), {
      token: ben.token,
    });
    expect(cardTitles(String(shipped.body))).toEqual(["Ben Shipped Fan"]);
  });

  test("in the account's language, over the browser's", async () => {
    const set = await h.req("PUT", "/api/user/language", {
      token: ben.token,
      body: { language: "de" },
    });
    expect(set.status).toBe(200);
    const { status, body } = await call(h, "GET", screenUrl("/orders", "", { language: "fr" }), {
      token: ben.token,
    });
    expect(status).toBe(200);
    expect(String(body)).toContain("<h1>Bestellungen</h1>");
  });

  test("a product name is text, never markup", async () => {
    const u = await h.register("mallory-first@example.com", "secret1", "Mallory");
    await h.req("PATCH", "/api/user/timezone", { token: u.token, body: { timezone: "UTC" } });
    await addOrder(u.token, `<img src=x onerror="alert(1)"> Kettle`);
    const html = String((await call(h, "GET", screenUrl("/orders"), { token: u.token })).body);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt; Kettle");
  });

  test("the dashboard is drawn with the user's counts", async () => {
    const html = String((await call(h, "GET", screenUrl("/"), { token: anna.token })).body);
    expect(html).toContain('class="container dashboard"');
    expect(html).toMatch(/aria-label="Ordered: 12,/);
  });
});

describe("what the server does not draw", () => {
  test("a user without a saved time zone (dates would be in the browser's): 204", async () => {
    const u = await h.register("zoneless-first@example.com");
    const res = await h.req("GET", screenUrl("/orders"), { token: u.token });
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
  });

  test("pages that are not a signed-in first screen: 204", async () => {
    for (const path of [
      "/login",
      "/privacy-policy",
      "/no-such-page",
      "/account",
      "/orders/1/edit",
    ]) {
      const res = await h.req("GET", screenUrl(path), { token: anna.token });
      expect({ path, status: res.status }).toEqual({ path, status: 204 });
    }
  });

  test("no token or a wrong one: 401, as every signed-in request", async () => {
    expect((await call(h, "GET", screenUrl("/orders"))).status).toBe(401);
    const wrong = await call(h, "GET", screenUrl("/orders"), { token: "not-a-session" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toMatchObject({ code: "token_invalid" });
  });

  test("a bad query: 400 naming the parameter", async () => {
    const cases: [string, string][] = [
      [`${FIRST_SCREEN_PATH}?language=en&width=390&height=844`, "path"],
      [screenUrl("orders"), "path"],
      [screenUrl("/orders", "", { language: "xx" }), "language"],
      [screenUrl("/orders", "", { width: 0 }), "width"],
      [screenUrl(`/${"a".repeat(3000)}`), "path"],
    ];
    for (const [url, param] of cases) {
      const { status, body } = await call(h, "GET", url, { token: anna.token });
      expect({ param, status }).toEqual({ param, status: 400 });
      expect(body).toMatchObject({ code: "field_invalid", values: { path: param } });
    }
  });

  test("the renderer itself is never sent to a browser", async () => {
    const res = await h.req("GET", "/render/server-render.js");
    expect(await res.text()).not.toContain("renderFirstScreen");
  });
});
