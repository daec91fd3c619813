/** GET/PUT /api/user/review-settings (docs/behaviour.md#data, docs/behaviour.md#validation, docs/api.md): defaults, validation, isolation, events. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { DEFAULT_REVIEW_SETTINGS, type ReviewSettings } from "../../src/contract/constants.ts";
import type { LiveEvent } from "../../src/contract/events.ts";
import { createHarness, type Harness } from "../harness.ts";
import { call, type ErrorBody } from "./helpers.ts";

let h: Harness;
beforeEach(() => {
  h = createHarness();
});
afterEach(async () => {
  await h.close();
});

const PATH = "/api/user/review-settings";

const custom: ReviewSettings = {
  targetWordCount: 275,
  aiEditingOption: "Improve Writing",
  toneAllocation: {
    humorous: 10,
    professional: 25,
    friendly: 40,
    concise: 0,
    encouraging: 20,
    formal: 5,
  },
  autoGenerateSubject: true,
};

const get = async (token: string) => {
  const r = await call<ReviewSettings>(h, "GET", PATH, { token });
  expect(r.status).toBe(200);
  return r.body;
};

const rowCount = () =>
  (h.db.$client.query("SELECT COUNT(*) AS n FROM review_settings").get() as { n: number }).n;

describe("GET /api/user/review-settings", () => {
  test("a new user gets the defaults: 150 words, AI editing None, humorous 100, no subject", async () => {
    const u = await h.register();
    const r = await call<ReviewSettings>(h, "GET", PATH, { token: u.token });
    expect(r.status).toBe(200);
    expect(r.res.headers.get("cache-control")).toBe("no-store");
    expect(r.body).toEqual({
      targetWordCount: 150,
      aiEditingOption: "None",
      toneAllocation: {
        humorous: 100,
        professional: 0,
        friendly: 0,
        concise: 0,
        encouraging: 0,
        formal: 0,
      },
      autoGenerateSubject: false,
    });
    // Reading does not create a row: "no row" stays the way defaults are stored.
    expect(rowCount()).toBe(0);
  });

  test("needs a signed-in user", async () => {
    expect((await call(h, "GET", PATH)).status).toBe(401);
    expect((await call(h, "PUT", PATH, { body: custom })).status).toBe(401);
    expect(rowCount()).toBe(0);
  });
});

describe("PUT /api/user/review-settings", () => {
  test("saves all four fields, answers them, and GET returns them afterwards", async () => {
    const u = await h.register();
    const r = await call<ReviewSettings>(h, "PUT", PATH, { token: u.token, body: custom });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(custom);
    expect(await get(u.token)).toEqual(custom);
    // The AI enhancement reads the same values through the service.
    expect(h.services.reviewSettings.get(u.userid)).toEqual(custom);
  });

  test("a second save replaces the first (one row per user)", async () => {
    const u = await h.register();
    await call(h, "PUT", PATH, { token: u.token, body: custom });
    const next: ReviewSettings = {
      ...DEFAULT_REVIEW_SETTINGS,
      targetWordCount: 50,
      aiEditingOption: "Grammar & Spelling",
    };
    const r = await call<ReviewSettings>(h, "PUT", PATH, { token: u.token, body: next });
    expect(r.status).toBe(200);
    expect(await get(u.token)).toEqual(next);
    expect(rowCount()).toBe(1);
  });

  test("the word count bounds 50 and 500 are accepted", async () => {
    const u = await h.register();
    for (const targetWordCount of [50, 500]) {
      const r = await call(h, "PUT", PATH, {
        token: u.token,
        body: { ...custom, targetWordCount },
      });
      expect(r.status).toBe(200);
      expect((await get(u.token)).targetWordCount).toBe(targetWordCount);
    }
  });

  test("unknown top-level fields are ignored, not stored", async () => {
    const u = await h.register();
    const r = await call<ReviewSettings>(h, "PUT", PATH, {
      token: u.token,
      body: { ...custom, userId: 999 },
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual(custom);
  });

  test("each user sees and changes only their own settings", async () => {
    const a = await h.register();
    const b = await h.register();
    await call(h, "PUT", PATH, { token: a.token, body: custom });
    expect(await get(a.token)).toEqual(custom);
    expect(await get(b.token)).toEqual(DEFAULT_REVIEW_SETTINGS);
  });

  test("a save publishes a user UPDATE event to that user only, so their other tabs refresh", async () => {
    const a = await h.register();
    const b = await h.register();
    const seenA: LiveEvent[] = [];
    const seenB: LiveEvent[] = [];
    const offA = h.services.events.subscribe(a.userid, (e) => seenA.push(e));
    const offB = h.services.events.subscribe(b.userid, (e) => seenB.push(e));
    await call(h, "PUT", PATH, { token: a.token, body: custom });
    offA();
    offB();
    expect(seenA.map((e) => [e.table, e.operation])).toEqual([["user", "UPDATE"]]);
    expect(seenB).toEqual([]);
  });

  test("a refused body publishes nothing", async () => {
    const u = await h.register();
    const seen: LiveEvent[] = [];
    const off = h.services.events.subscribe(u.userid, (e) => seen.push(e));
    await call(h, "PUT", PATH, { token: u.token, body: { ...custom, targetWordCount: 7 } });
    off();
    expect(seen).toEqual([]);
  });

  test("the settings are in the user's export and go with the account", async () => {
    const u = await h.register("rae@example.com", "secret1");
    await call(h, "PUT", PATH, { token: u.token, body: custom });
    const exp = await call<{ reviewSettings: ReviewSettings }>(h, "GET", "/api/user/export", {
      token: u.token,
    });
    expect(exp.status).toBe(200);
    expect(exp.body.reviewSettings).toEqual(custom);
    const del = await call(h, "DELETE", "/api/user", {
      token: u.token,
      body: { password: "secret1" },
    });
    expect(del.status).toBe(200);
    expect(rowCount()).toBe(0);
  });
});

describe("PUT /api/user/review-settings refuses a bad body with a 400 naming the problem", () => {
  const tones = custom.toneAllocation;
  const cases: [string, unknown, RegExp][] = [
    ["word count below 50", { ...custom, targetWordCount: 45 }, /targetWordCount.*50 to 500/],
    ["word count above 500", { ...custom, targetWordCount: 505 }, /targetWordCount.*50 to 500/],
    ["word count off the 5-step", { ...custom, targetWordCount: 152 }, /multiple of 5/],
    ["word count not whole", { ...custom, targetWordCount: 150.5 }, /whole number/],
    ["word count as text", { ...custom, targetWordCount: "150" }, /targetWordCount.*number/],
    ["word count missing", { ...custom, targetWordCount: undefined }, /targetWordCount/],
    [
      "unknown AI option",
      { ...custom, aiEditingOption: "Rewrite Everything" },
      /aiEditingOption must be one of: None, Grammar & Spelling, Improve Writing/,
    ],
    [
      "tones summing to 90",
      { ...custom, toneAllocation: { ...tones, friendly: 30 } },
      /tone total must equal 100.*add up to 90/,
    ],
    [
      "tones summing to 110",
      { ...custom, toneAllocation: { ...tones, friendly: 50 } },
      /tone total must equal 100.*add up to 110/,
    ],
    [
      "a negative tone",
      { ...custom, toneAllocation: { ...tones, humorous: -10, friendly: 60 } },
      /humorous.*0 to 100/,
    ],
    [
      "a tone above 100",
      {
        ...custom,
        toneAllocation: {
          humorous: 120,
          professional: 0,
          friendly: 0,
          concise: 0,
          encouraging: 0,
          formal: 0,
        },
      },
      /humorous.*0 to 100/,
    ],
    [
      "a fractional tone",
      { ...custom, toneAllocation: { ...tones, humorous: 9.5, formal: 5.5 } },
      /humorous.*whole number/,
    ],
    ["a tone missing", { ...custom, toneAllocation: { ...tones, formal: undefined } }, /formal/],
    [
      "an unknown tone",
      { ...custom, toneAllocation: { ...tones, sarcastic: 0 } },
      /Unknown tone sarcastic/,
    ],
    ["tones missing", { ...custom, toneAllocation: undefined }, /toneAllocation/],
    ["tones as a list", { ...custom, toneAllocation: [100, 0, 0, 0, 0, 0] }, /toneAllocation/],
    [
      "subject flag as text",
      { ...custom, autoGenerateSubject: "yes" },
      /autoGenerateSubject must be true or false/,
    ],
    ["an empty body", {}, /targetWordCount/],
  ];
  for (const [name, body, message] of cases) {
    test(name, async () => {
      const u = await h.register();
      await call(h, "PUT", PATH, { token: u.token, body: custom });
      const r = await call<ErrorBody>(h, "PUT", PATH, { token: u.token, body });
      expect(r.status).toBe(400);
      expect(r.body.error).toMatch(message);
      // Nothing changed.
      expect(await get(u.token)).toEqual(custom);
    });
  }

  test("a body that is not JSON is refused and nothing is saved", async () => {
    const u = await h.register();
    const r = await call<ErrorBody>(h, "PUT", PATH, {
      token: u.token,
      raw: "targetWordCount=150",
      headers: { "content-type": "application/json" },
    });
    expect(r.status).toBe(400);
    expect(r.body.error).toBe("The request body is not valid JSON");
    expect(rowCount()).toBe(0);
  });
});
