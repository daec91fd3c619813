/**
 * AI enhancement (docs/behaviour.md#states-and-transitions, docs/api.md, docs/messages.md): POST /api/orders/{id}/review/enhance through the real openai
 * SDK against a local fake OpenAI-compatible server (test/support/fake-openai.ts). The prompt
 * follows the user's saved review settings; only the product name, subject and text leave the
 * server; every failure is a status the client maps (400 / 403 / 404 / 408 / 429 / 502 / 503).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import fs from "node:fs";
import type { ReviewSettings } from "../../src/contract/constants.ts";
import type { Order } from "../../src/contract/orders.ts";
import type { EnhanceResponse } from "../../src/contract/reviews.ts";
import { createHarness, type Harness } from "../harness.ts";
import {
  FAKE_SUBJECT,
  FAKE_TEXT,
  type FakeOpenAI,
  startFakeOpenAI,
} from "../support/fake-openai.ts";
import { call, type ErrorBody } from "./helpers.ts";

const KEY = "sk-test-enhance-key";
let ai: FakeOpenAI;
beforeAll(() => {
  ai = startFakeOpenAI({ apiKey: KEY });
});
afterAll(() => ai.stop());

const harnesses: Harness[] = [];
afterEach(async () => {
  ai.requests.length = 0;
  ai.reply = () => JSON.stringify({ text: FAKE_TEXT, subject: FAKE_SUBJECT });
  for (const h of harnesses.splice(0)) await h.close();
});

function harness(env: Record<string, string> = {}): Harness {
  const h = createHarness({
    OPENAI_BASE_URL: ai.baseUrl,
    OPENAI_API_KEY: KEY,
    OPENAI_MODEL: "fake-model-1",
    ...env,
  });
  harnesses.push(h);
  return h;
}

const IMPROVE: ReviewSettings = {
  targetWordCount: 200,
  aiEditingOption: "Improve Writing",
  toneAllocation: {
    humorous: 0,
    professional: 60,
    friendly: 40,
    concise: 0,
    encouraging: 0,
    formal: 0,
  },
  autoGenerateSubject: true,
};
const GRAMMAR: ReviewSettings = {
  ...IMPROVE,
  aiEditingOption: "Grammar & Spelling",
  autoGenerateSubject: false,
};

/** A user with saved settings and one Received order with everything filled in. */
async function setup(h: Harness, settings: ReviewSettings | null = IMPROVE) {
  const u = await h.register();
  if (settings) {
    const s = await call(h, "PUT", "/api/user/review-settings", { token: u.token, body: settings });
    if (s.status !== 200) throw new Error(`settings: ${s.status} ${JSON.stringify(s.body)}`);
  }
  const o = await call<Order>(h, "POST", "/api/orders", {
    token: u.token,
    body: {
      productname: "Bamboo Cutting Board, Large",
      asin: "B0SECRET01",
      status: "Received",
      orderid: "112-0000000-7777777",
      shiptoaddress: "1 Private Lane, Springfield",
      reviewtext: "the saved text that is not sent",
    },
  });
  if (o.status !== 201) throw new Error(`order: ${o.status} ${JSON.stringify(o.body)}`);
  return { ...u, orderId: o.body.orderid };
}

const enhance = (h: Harness, token: string, orderId: number, body: unknown) =>
  call<EnhanceResponse & Partial<ErrorBody>>(h, "POST", `/api/orders/${orderId}/review/enhance`, {
    token,
    body,
  });

const TEXT = "i bought this bord for my kitchen. its realy big and dont slide around";

describe("a successful enhancement", () => {
  test("improve: the prompt carries the target length and the tone mix; text and a generated subject come back", async () => {
    const h = harness();
    const u = await setup(h);
    const r = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ enhancedText: FAKE_TEXT, enhancedSubject: FAKE_SUBJECT });
    expect(r.res.headers.get("cache-control")).toBe("no-store");

    expect(ai.requests).toHaveLength(1);
    const req = ai.requests[0]!;
    expect(req.path).toBe("/v1/chat/completions");
    expect(req.authorization).toBe(`Bearer ${KEY}`);
    expect(req.body?.model).toBe("fake-model-1");
    const prompt = ai.promptOf(req);
    expect(prompt).toContain("about 200 words");
    expect(prompt).toContain("60% professional");
    expect(prompt).toContain("40% friendly");
    // Tones at 0 are not asked for.
    for (const t of ["humorous", "concise", "encouraging", "formal"]) {
      expect(prompt).not.toContain(`% ${t}`);
    }
    expect(prompt).toMatch(/write a subject/i);
    expect(prompt).toContain(TEXT);
    expect(prompt).toContain("Bamboo Cutting Board, Large");
  });

  test("a German review: the model is asked to answer in the review's language, not in English", async () => {
    const h = harness();
    const u = await setup(h);
    const text = "Das Brett ist groß und rutscht nicht. Es lässt sich leicht reinigen.";
    for (const requestType of ["improve", "grammar"] as const) {
      const r = await enhance(h, u.token, u.orderId, { requestType, text });
      expect(r.status).toBe(200);
    }
    expect(ai.requests).toHaveLength(2);
    for (const req of ai.requests) {
      const [system, user] = req.body?.messages ?? [];
      expect(system?.content).toContain(
        "Language: answer in the language the review is written in (that of the review text, or of the subject when there is no text)",
      );
      expect(system?.content).toContain("Never translate it into English or any other language");
      // The review itself goes as written; nothing names a language for the model to use.
      expect(user?.content).toContain(text);
    }
  });

  test("only the product name, subject and text leave the server", async () => {
    const h = harness();
    const u = await setup(h);
    const r = await enhance(h, u.token, u.orderId, {
      requestType: "improve",
      text: TEXT,
      subject: "great bord",
    });
    expect(r.status).toBe(200);
    const req = ai.requests[0]!;
    expect(Object.keys(req.body ?? {}).sort()).toEqual(["messages", "model", "temperature"]);
    const sent = JSON.stringify(req.body);
    for (const secret of [
      "B0SECRET01",
      "112-0000000-7777777",
      "Private Lane",
      "the saved text that is not sent",
      u.email,
      "Test User",
    ]) {
      expect(sent).not.toContain(secret);
    }
    expect(sent).toContain("great bord");
    expect(ai.promptOf(req)).toMatch(/improve the subject/i);
  });

  test("grammar: spelling and grammar only, the reviewer's words kept; no length, no tones, no subject unless asked", async () => {
    const h = harness();
    const u = await setup(h, GRAMMAR);
    const r = await enhance(h, u.token, u.orderId, { requestType: "grammar", text: TEXT });
    expect(r.status).toBe(200);
    // The fake always offers a subject; it was not asked for, so it is not passed on.
    expect(r.body).toEqual({ enhancedText: FAKE_TEXT, enhancedSubject: null });
    const prompt = ai.promptOf(ai.requests[0]!);
    expect(prompt).toMatch(/spelling, grammar and punctuation only/i);
    expect(prompt).toMatch(/keep the reviewer's own words/i);
    expect(prompt).not.toContain("words for the review text");
    expect(prompt).not.toContain("professional");
    expect(prompt).not.toMatch(/write a subject/i);
    expect(prompt).toContain('{"text": "<the review text>"}');
  });

  test("grammar with auto-generate on: a subject is written from the text", async () => {
    const h = harness();
    const u = await setup(h, { ...GRAMMAR, autoGenerateSubject: true });
    const r = await enhance(h, u.token, u.orderId, { requestType: "grammar", text: TEXT });
    expect(r.body).toEqual({ enhancedText: FAKE_TEXT, enhancedSubject: FAKE_SUBJECT });
    expect(ai.promptOf(ai.requests[0]!)).toMatch(/write a subject/i);
  });

  test("a subject alone: only the subject is asked for and answered", async () => {
    const h = harness();
    const u = await setup(h);
    const r = await enhance(h, u.token, u.orderId, {
      requestType: "improve",
      subject: "good bord",
      text: "   ",
    });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ enhancedText: null, enhancedSubject: FAKE_SUBJECT });
    const prompt = ai.promptOf(ai.requests[0]!);
    expect(prompt).toContain('{"subject": "<the subject>"}');
    expect(prompt).not.toContain("words for the review text");
  });

  test("a single tone at 100 is asked for by name", async () => {
    const h = harness();
    const u = await setup(h, {
      ...IMPROVE,
      targetWordCount: 75,
      toneAllocation: {
        humorous: 100,
        professional: 0,
        friendly: 0,
        concise: 0,
        encouraging: 0,
        formal: 0,
      },
    });
    await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    const prompt = ai.promptOf(ai.requests[0]!);
    expect(prompt).toContain("Tone: humorous");
    expect(prompt).toContain("about 75 words");
  });

  test("replies in a code fence, as plain prose, or empty", async () => {
    const h = harness();
    const u = await setup(h, GRAMMAR);
    const fenced = await enhance(h, u.token, u.orderId, {
      requestType: "grammar",
      text: `${TEXT} [fake:fenced]`,
    });
    expect(fenced.body).toEqual({ enhancedText: FAKE_TEXT, enhancedSubject: null });
    const plain = await enhance(h, u.token, u.orderId, {
      requestType: "grammar",
      text: `${TEXT} [fake:plain]`,
    });
    expect(plain.body).toEqual({ enhancedText: FAKE_TEXT, enhancedSubject: null });
    // An empty answer is a 200 with nothing in it: the dialog shows 'No enhanced content received.'
    ai.enqueue({ kind: "empty" });
    const empty = await enhance(h, u.token, u.orderId, { requestType: "grammar", text: TEXT });
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual({ enhancedText: null, enhancedSubject: null });
  });

  test("Ollama: a base URL without a key works (the SDK gets a placeholder key)", async () => {
    const open = startFakeOpenAI();
    try {
      const h = createHarness({ OPENAI_BASE_URL: open.baseUrl, OPENAI_MODEL: "llama3.2" });
      harnesses.push(h);
      const u = await setup(h);
      const r = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
      expect(r.status).toBe(200);
      expect(open.requests[0]?.body?.model).toBe("llama3.2");
      expect(open.requests[0]?.authorization).toStartWith("Bearer ");
    } finally {
      open.stop();
    }
  });

  test("the review's words never reach the log", async () => {
    const h = harness({ LOG_LEVEL: "debug" });
    const u = await setup(h);
    const secretText = "my neighbour Zebulon borrowed the board";
    const r = await enhance(h, u.token, u.orderId, {
      requestType: "improve",
      text: secretText,
      subject: "Zebulon approves",
    });
    expect(r.status).toBe(200);
    ai.enqueue({ kind: "server-error" });
    await enhance(h, u.token, u.orderId, { requestType: "improve", text: secretText });
    const file = h.logger.activeFile();
    await h.logger.close();
    const log = file && fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
    expect(log).toContain("review enhanced");
    expect(log).toContain("enhancement failed");
    expect(log).not.toContain("Zebulon");
    expect(log).not.toContain(FAKE_TEXT);
  });
});

describe("refusals before anything is sent", () => {
  test("another user's order (or none) answers 404 'Order not found'", async () => {
    const h = harness();
    const owner = await setup(h);
    const other = await setup(h);
    const r = await enhance(h, other.token, owner.orderId, { requestType: "improve", text: TEXT });
    expect(r.status).toBe(404);
    expect(r.body.error).toBe("Order not found");
    const missing = await enhance(h, other.token, 999_999, { requestType: "improve", text: TEXT });
    expect(missing.status).toBe(404);
    const unauth = await call(h, "POST", `/api/orders/${owner.orderId}/review/enhance`, {
      body: { requestType: "improve", text: TEXT },
    });
    expect(unauth.status).toBe(401);
    expect(ai.requests).toHaveLength(0);
  });

  test("400s carry the phrases the client maps (docs/messages.md)", async () => {
    const h = harness();
    const u = await setup(h);
    const cases: [unknown, string][] = [
      [{ requestType: "improve" }, "required for enhancement"],
      [{ requestType: "improve", text: "  \n ", subject: "" }, "required for enhancement"],
      [{ requestType: "improve", text: "x".repeat(20_001) }, "too long"],
      [{ requestType: "grammar", subject: "s".repeat(501) }, "too long"],
      [{ requestType: "rewrite", text: TEXT }, "Invalid request type"],
      [{ text: TEXT }, "Invalid request type"],
    ];
    for (const [body, phrase] of cases) {
      const r = await enhance(h, u.token, u.orderId, body);
      expect(r.status).toBe(400);
      expect(r.body.error).toContain(phrase);
    }
    // Exactly at the limits is fine.
    const atLimit = await enhance(h, u.token, u.orderId, {
      requestType: "improve",
      text: "x".repeat(20_000),
      subject: "s".repeat(500),
    });
    expect(atLimit.status).toBe(200);
    expect(ai.requests).toHaveLength(1);
  });

  test("no AI server configured: 503 with a message saying so", async () => {
    const h = createHarness();
    harnesses.push(h);
    const u = await setup(h);
    const cfg = await call<{ aiAvailable: boolean }>(h, "GET", "/api/config", { token: u.token });
    expect(cfg.body.aiAvailable).toBe(false);
    const r = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(r.status).toBe(503);
    expect(r.body.error).toContain("OPENAI_BASE_URL");
  });

  test("AI editing None in the user's settings: 403, nothing sent", async () => {
    const h = harness();
    const u = await setup(h, null); // never saved: the defaults, AI editing None
    const r = await enhance(h, u.token, u.orderId, { requestType: "grammar", text: TEXT });
    expect(r.status).toBe(403);
    expect(r.body.error).toContain("AI editing is off");
    expect(ai.requests).toHaveLength(0);
  });

  test("the per-user hourly limit answers 429 with Retry-After; other users are not affected", async () => {
    const h = harness({ AI_HOURLY_LIMIT: "2" });
    const u = await setup(h);
    const other = await setup(h);
    for (let i = 0; i < 2; i++) {
      expect(
        (await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT })).status,
      ).toBe(200);
    }
    const r = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(r.status).toBe(429);
    const wait = Number(r.res.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(3500);
    expect(wait).toBeLessThanOrEqual(3600);
    expect(r.body.error).toContain(`wait ${wait} seconds`);
    expect(ai.requests).toHaveLength(2);
    const o = await enhance(h, other.token, other.orderId, { requestType: "improve", text: TEXT });
    expect(o.status).toBe(200);
  });
});

describe("failures of the AI server", () => {
  test("its 429 → 429 with its Retry-After passed on (the default wait when it gives none)", async () => {
    const h = harness();
    const u = await setup(h);
    ai.enqueue({ kind: "rate-limited", retryAfter: "17" });
    const r = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(r.status).toBe(429);
    expect(r.res.headers.get("retry-after")).toBe("17");
    ai.enqueue({ kind: "rate-limited", retryAfter: null });
    const d = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(d.status).toBe(429);
    expect(d.res.headers.get("retry-after")).toBe("60");
    // One call each: the SDK's own retries are off.
    expect(ai.requests).toHaveLength(2);
  });

  test("no answer within OPENAI_TIMEOUT_MS → 408, and the call is abandoned", async () => {
    const h = harness({ OPENAI_TIMEOUT_MS: "1000" });
    const u = await setup(h);
    ai.enqueue({ kind: "slow", ms: 60_000 });
    const started = Date.now();
    const r = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(r.status).toBe(408);
    expect(r.body.error).toContain("did not answer within 1 seconds");
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  test("its 400, 500, a wrong key, an unknown address → 502 with a message, never 500", async () => {
    const h = harness();
    const u = await setup(h);
    ai.enqueue({ kind: "bad-request" });
    const bad = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(bad.status).toBe(502);
    expect(bad.body.error).toContain("refused the request");
    // The AI server's "too long" must not read as our own 400 "too long".
    ai.enqueue({ kind: "server-error", status: 503 });
    const down = await enhance(h, u.token, u.orderId, { requestType: "improve", text: TEXT });
    expect(down.status).toBe(502);
    expect(down.body.error).toContain("(503)");

    const wrongKey = harness({ OPENAI_API_KEY: "sk-wrong" });
    const w = await setup(wrongKey);
    const k = await enhance(wrongKey, w.token, w.orderId, { requestType: "improve", text: TEXT });
    expect(k.status).toBe(502);
    expect(k.body.error).toContain("OPENAI_API_KEY");

    const nowhere = harness({ OPENAI_BASE_URL: "http://127.0.0.1:9/v1" });
    const n = await setup(nowhere);
    const x = await enhance(nowhere, n.token, n.orderId, { requestType: "improve", text: TEXT });
    expect(x.status).toBe(502);
    expect(x.body.error).toContain("Could not reach the AI server");

    const wrongPath = harness({ OPENAI_BASE_URL: ai.baseUrl.replace(/\/v1$/, "/nope") });
    const p = await setup(wrongPath);
    const y = await enhance(wrongPath, p.token, p.orderId, { requestType: "improve", text: TEXT });
    expect(y.status).toBe(502);
    expect(y.body.error).toContain("fake-model-1");
  });
});
