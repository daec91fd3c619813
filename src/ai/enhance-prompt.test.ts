/** The enhancement prompt follows the settings; the model's reply is read tolerantly. */
import { describe, expect, test } from "bun:test";
import {
  DEFAULT_REVIEW_SETTINGS,
  type ReviewSettings,
  type ToneAllocation,
} from "../contract/constants.ts";
import {
  buildEnhancePrompt,
  type EnhanceInput,
  enhanceWants,
  parseEnhanceReply,
  toneMix,
} from "./enhance-prompt.ts";
import { retryAfterSeconds } from "./openai-client.ts";

const tones = (t: Partial<ToneAllocation>): ToneAllocation => ({
  humorous: 0,
  professional: 0,
  friendly: 0,
  concise: 0,
  encouraging: 0,
  formal: 0,
  ...t,
});
const settings = (s: Partial<ReviewSettings> = {}): ReviewSettings => ({
  ...DEFAULT_REVIEW_SETTINGS,
  aiEditingOption: "Improve Writing",
  ...s,
});
const input = (i: Partial<EnhanceInput> = {}): EnhanceInput => ({
  requestType: "improve",
  text: "It works well.",
  subject: null,
  productName: "Kettle",
  settings: settings(),
  ...i,
});
const system = (p: ReturnType<typeof buildEnhancePrompt>) => p.messages[0]?.content ?? "";
const user = (p: ReturnType<typeof buildEnhancePrompt>) => p.messages[1]?.content ?? "";

describe("toneMix", () => {
  test("tones above 0 only, heaviest first, ties in the settings' order", () => {
    expect(toneMix(tones({ friendly: 25, formal: 50, concise: 25 }))).toEqual([
      { tone: "formal", percent: 50 },
      { tone: "friendly", percent: 25 },
      { tone: "concise", percent: 25 },
    ]);
    expect(toneMix(tones({ humorous: 100 }))).toEqual([{ tone: "humorous", percent: 100 }]);
  });
});

describe("enhanceWants", () => {
  const s = (autoGenerateSubject: boolean) => settings({ autoGenerateSubject });
  test.each([
    // text, subject, auto → text, subject, generate
    ["t", null, false, true, false, false],
    ["t", null, true, true, true, true],
    ["t", "s", false, true, true, false],
    ["t", "s", true, true, true, false],
    [null, "s", false, false, true, false],
    [null, "s", true, false, true, false],
    // Nothing to write a subject from.
    [null, null, true, false, false, false],
  ] as const)("text %p subject %p auto %p", (text, subject, auto, wt, ws, gen) => {
    expect(enhanceWants({ text, subject, settings: s(auto) })).toEqual({
      text: wt,
      subject: ws,
      generateSubject: gen,
    });
  });
});

describe("buildEnhancePrompt", () => {
  test("improve: target length, the weighted tone mix with what each tone means, JSON shape", () => {
    const p = buildEnhancePrompt(
      input({
        settings: settings({
          targetWordCount: 350,
          toneAllocation: tones({ encouraging: 70, formal: 30 }),
        }),
      }),
    );
    const s = system(p);
    expect(s).toContain("about 350 words");
    expect(s).toContain("70% encouraging (positive and helpful to other buyers)");
    expect(s).toContain("30% formal (polished, without slang or contractions)");
    expect(s.indexOf("70% encouraging")).toBeLessThan(s.indexOf("30% formal"));
    expect(s).toMatch(/never invent/i);
    expect(s).toContain('{"text": "<the review text>"}');
    expect(p.wants).toEqual({ text: true, subject: false });
    expect(p.temperature).toBeGreaterThan(0.3);
  });

  test("grammar ignores length and tones and keeps the reviewer's words", () => {
    const p = buildEnhancePrompt(
      input({ requestType: "grammar", settings: settings({ targetWordCount: 350 }) }),
    );
    const s = system(p);
    expect(s).toMatch(/spelling, grammar and punctuation only/);
    expect(s).toMatch(/Keep the reviewer's own words/);
    expect(s).not.toContain("350");
    expect(s).not.toContain("humorous");
    expect(p.temperature).toBeLessThan(0.3);
  });

  test("the user message is the product name, subject and text as JSON, and nothing else", () => {
    const p = buildEnhancePrompt(
      input({ text: 'He said "wow"\nsecond line', subject: "Loud kettle", productName: "Kettle" }),
    );
    expect(p.messages).toHaveLength(2);
    const json = JSON.parse(user(p).slice(user(p).indexOf("{")));
    expect(json).toEqual({
      product: "Kettle",
      subject: "Loud kettle",
      text: 'He said "wow"\nsecond line',
    });
    expect(system(p)).toContain('{"subject": "<the subject>", "text": "<the review text>"}');
  });

  test("a subject is generated only when auto-generate is on and there is text", () => {
    const on = buildEnhancePrompt(input({ settings: settings({ autoGenerateSubject: true }) }));
    expect(on.generateSubject).toBe(true);
    expect(system(on)).toMatch(/write a subject/);
    const off = buildEnhancePrompt(input());
    expect(system(off)).not.toMatch(/subject for the review/);
  });

  test("every kind of request asks for the answer in the review's own language, not English", () => {
    for (const i of [
      input({ requestType: "improve" }),
      input({
        requestType: "grammar",
        settings: settings({ aiEditingOption: "Grammar & Spelling" }),
      }),
      input({ text: null, subject: "Ein guter Wasserkocher" }),
    ]) {
      const prompt = system(buildEnhancePrompt(i));
      expect(prompt).toContain("answer in the language the review is written in");
      expect(prompt).toContain("Never translate it into English or any other language");
    }
  });

  test("a subject alone asks for a subject only, without a text length", () => {
    const p = buildEnhancePrompt(input({ text: null, subject: "ok kettle" }));
    expect(p.wants).toEqual({ text: false, subject: true });
    expect(system(p)).toContain('{"subject": "<the subject>"}');
    expect(system(p)).not.toContain("words for the review text");
  });
});

describe("parseEnhanceReply", () => {
  const both = { text: true, subject: true };
  const textOnly = { text: true, subject: false };
  const subjectOnly = { text: false, subject: true };

  test("plain JSON", () => {
    expect(parseEnhanceReply('{"text":" Better. ","subject":"Nice"}', both)).toEqual({
      enhancedText: "Better.",
      enhancedSubject: "Nice",
    });
  });

  test("parts not asked for are dropped", () => {
    expect(parseEnhanceReply('{"text":"Better.","subject":"Nice"}', textOnly)).toEqual({
      enhancedText: "Better.",
      enhancedSubject: null,
    });
    expect(parseEnhanceReply('{"text":"Better.","subject":"Nice"}', subjectOnly)).toEqual({
      enhancedText: null,
      enhancedSubject: "Nice",
    });
  });

  test("a fence with a preamble, and a <think> block first", () => {
    const fenced = 'Sure! Here you go:\n```json\n{"subject": "S", "text": "T"}\n```\nEnjoy!';
    expect(parseEnhanceReply(fenced, both)).toEqual({ enhancedText: "T", enhancedSubject: "S" });
    const thinking = '<think>The user wants {"text": "no"}</think>\n{"text": "Yes."}';
    expect(parseEnhanceReply(thinking, textOnly).enhancedText).toBe("Yes.");
  });

  test("other key names, and unknown ones (the longest string is the review)", () => {
    expect(parseEnhanceReply('{"enhancedText":"A","title":"B"}', both)).toEqual({
      enhancedText: "A",
      enhancedSubject: "B",
    });
    expect(
      parseEnhanceReply('{"rewritten":"The long review text.","n":3,"x":"hm"}', textOnly),
    ).toEqual({ enhancedText: "The long review text.", enhancedSubject: null });
  });

  test("prose: the whole reply, less a 'Here is…:' line and wrapping quotes", () => {
    expect(
      parseEnhanceReply('Here is the corrected review:\n\n"It works well.\nTruly."', textOnly),
    ).toEqual({ enhancedText: "It works well.\nTruly.", enhancedSubject: null });
    expect(parseEnhanceReply("Subject: Great kettle\n\nIt boils fast.", both)).toEqual({
      enhancedText: "It boils fast.",
      enhancedSubject: "Great kettle",
    });
    expect(parseEnhanceReply('"A quiet kettle"', subjectOnly)).toEqual({
      enhancedText: null,
      enhancedSubject: "A quiet kettle",
    });
  });

  test("a subject is one line of at most 500 characters", () => {
    const r = parseEnhanceReply(
      JSON.stringify({ subject: `Line one\n line two ${"x".repeat(600)}` }),
      subjectOnly,
    );
    expect(r.enhancedSubject?.startsWith("Line one line two x")).toBe(true);
    expect(r.enhancedSubject).toHaveLength(500);
  });

  test("empty answers are empty", () => {
    for (const c of [null, undefined, "", "   \n", "<think>hmm</think>", '{"text":"  "}', "{}"]) {
      expect(parseEnhanceReply(c, both)).toEqual({ enhancedText: null, enhancedSubject: null });
    }
  });
});

describe("retryAfterSeconds", () => {
  const h = (o: Record<string, string>) => new Headers(o);
  test("seconds, milliseconds, an HTTP date; the fallback otherwise", () => {
    expect(retryAfterSeconds(h({ "retry-after": "17" }), 60)).toBe(17);
    expect(retryAfterSeconds(h({ "retry-after": "0" }), 60)).toBe(1);
    expect(retryAfterSeconds(h({ "retry-after-ms": "2500", "retry-after": "9" }), 60)).toBe(3);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryAfterSeconds(h({ "retry-after": "Wed, 01 Jan 2025 00:02:00 GMT" }), 60, now)).toBe(
      120,
    );
    expect(retryAfterSeconds(h({ "retry-after": "soon" }), 60)).toBe(60);
    expect(retryAfterSeconds(h({}), 60)).toBe(60);
    expect(retryAfterSeconds(null, 45)).toBe(45);
  });
});
