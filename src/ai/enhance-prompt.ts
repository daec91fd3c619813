/**
 * The enhancement prompt (docs/behaviour.md#states-and-transitions) and the reading of the model's reply. Pure: no I/O.
 *
 * What goes to the AI server is exactly what is built here: the product name (context only), the
 * review subject and/or text, and instructions derived from the user's review settings (target
 * length, tone mix, subject generation). Nothing else about the user or the order.
 *
 * - grammar: fix spelling, grammar and punctuation only; the reviewer's own words stay.
 * - improve: rewrite for clarity towards the target word count, in the user's tone mix (tones
 *   above 0 with their weights).
 * - A subject is asked for when one was sent, or when autoGenerateSubject is on and there is text.
 * - The answer is in the language the review is written in (German on amazon.de, Japanese on
 *   amazon.co.jp…), never translated: the model tells the language from the text itself, so no
 *   setting of the user's is sent.
 *
 * The model is asked for a JSON object; the reply is read tolerantly (code fences, a preamble,
 * reasoning models' <think> blocks, other key names, or plain prose as a last resort).
 */
import {
  type EnhanceRequestType,
  REVIEW_SUBJECT_MAX,
  type ReviewSettings,
  TONES,
  type Tone,
  type ToneAllocation,
} from "../contract/constants.ts";
import type { EnhanceResponse } from "../contract/reviews.ts";
import type { ChatMessage } from "./openai-client.ts";

export type EnhanceInput = {
  requestType: EnhanceRequestType;
  /** Trimmed; null when absent or blank. */
  text: string | null;
  subject: string | null;
  productName: string | null;
  settings: ReviewSettings;
};

/** Which parts of the answer are asked for. */
export type EnhanceWants = { text: boolean; subject: boolean };

export type EnhancePrompt = {
  messages: ChatMessage[];
  wants: EnhanceWants;
  /** True when the subject is written from the text (none was sent). */
  generateSubject: boolean;
  temperature: number;
};

/** The answer stays in the review's own language, whatever the language of these instructions. */
export const LANGUAGE_RULE =
  "Language: answer in the language the review is written in (that of the review text, or of the subject when there is no text), with that language's spelling and punctuation. Never translate it into English or any other language; the language of the product name does not count.";

/** What each tone asks of the writing. */
export const TONE_GUIDE: Record<Tone, string> = {
  humorous: "light, witty touches where they fit",
  professional: "knowledgeable, precise and trustworthy",
  friendly: "warm and conversational",
  concise: "short sentences and no filler",
  encouraging: "positive and helpful to other buyers",
  formal: "polished, without slang or contractions",
};

/** The tones above 0, heaviest first (ties in the settings' order), e.g. "60% professional". */
export function toneMix(alloc: ToneAllocation): { tone: Tone; percent: number }[] {
  return TONES.filter((t) => (alloc[t] ?? 0) > 0)
    .map((tone) => ({ tone, percent: alloc[tone] }))
    .sort((a, b) => b.percent - a.percent);
}

/** The parts to ask for (docs/behaviour.md#states-and-transitions): the text when sent; a subject when sent or auto-generated. */
export function enhanceWants(input: Pick<EnhanceInput, "text" | "subject" | "settings">) {
  const text = Boolean(input.text);
  const subject = Boolean(input.subject) || (text && input.settings.autoGenerateSubject);
  return { text, subject, generateSubject: subject && !input.subject };
}

const SUBJECT_WORDS = 12;

export function buildEnhancePrompt(input: EnhanceInput): EnhancePrompt {
  const { requestType, settings } = input;
  const w = enhanceWants(input);
  const wants = { text: w.text, subject: w.subject };
  const rules: string[] = [];

  if (requestType === "grammar") {
    rules.push(
      "Task: correct spelling, grammar and punctuation only.",
      "Keep the reviewer's own words, sentence order, tone, meaning and length. Do not rephrase sentences that are already correct, and do not add or remove content.",
    );
    if (wants.text) rules.push("Keep the paragraph breaks of the review text.");
    if (wants.subject && !w.generateSubject) {
      rules.push("Correct the subject the same way; keep its words.");
    }
  } else {
    rules.push(
      "Task: improve the writing of the review so it reads clearly and naturally and is useful to other shoppers.",
      "Keep every fact, opinion and experience the reviewer gives. Never invent features, measurements, problems or experiences they did not mention.",
      "Write in the first person, as the reviewer, in plain text: no markdown, headings or lists.",
    );
    if (wants.text) {
      rules.push(
        `Length: about ${settings.targetWordCount} words for the review text (somewhat shorter or longer is fine; never pad it with invented content).`,
      );
    }
    const mix = toneMix(settings.toneAllocation);
    if (mix.length === 1 && mix[0]) {
      rules.push(`Tone: ${mix[0].tone} (${TONE_GUIDE[mix[0].tone]}).`);
    } else if (mix.length > 1) {
      rules.push(
        `Tone: blend these tones in these proportions: ${mix
          .map((m) => `${m.percent}% ${m.tone} (${TONE_GUIDE[m.tone]})`)
          .join(", ")}.`,
      );
    }
    if (wants.subject && !w.generateSubject) {
      rules.push(
        `Improve the subject too: a short, specific headline of at most ${SUBJECT_WORDS} words, in the same tone.`,
      );
    }
  }
  if (w.generateSubject) {
    rules.push(
      `Also write a subject for the review: a short, specific headline of at most ${SUBJECT_WORDS} words that sums up the review${requestType === "grammar" ? " in the reviewer's own words" : ""}.`,
    );
  }

  const shape =
    wants.text && wants.subject
      ? '{"subject": "<the subject>", "text": "<the review text>"}'
      : wants.text
        ? '{"text": "<the review text>"}'
        : '{"subject": "<the subject>"}';
  const system = [
    "You are an editor helping a reviewer polish a product review they wrote themselves.",
    ...rules,
    LANGUAGE_RULE,
    "The product name is context only: do not return it.",
    `Answer with only this JSON object and nothing else: ${shape}`,
  ].join("\n");

  const review: Record<string, string> = {};
  if (input.productName) review.product = input.productName;
  if (input.subject) review.subject = input.subject;
  if (input.text) review.text = input.text;
  const user = `The review, as JSON:\n${JSON.stringify(review, null, 2)}`;

  return {
    messages: [
      { role: "system", content: system },
      { role: "user", content: user },
    ],
    wants,
    generateSubject: w.generateSubject,
    temperature: requestType === "grammar" ? 0.1 : 0.7,
  };
}

const TEXT_KEYS = ["text", "enhancedText", "reviewText", "review_text", "review", "body"];
const SUBJECT_KEYS = ["subject", "enhancedSubject", "title", "headline", "summary"];

/** Reasoning models (deepseek-r1, qwen3 on Ollama) put their thoughts in <think> blocks. */
const stripThinking = (s: string) =>
  s.replace(/<think>[\s\S]*?<\/think>/gi, "").replace(/^[\s\S]*<\/think>/i, "");

function jsonCandidates(s: string): string[] {
  const out: string[] = [];
  for (const m of s.matchAll(/```[a-zA-Z]*\s*\n?([\s\S]*?)```/g)) if (m[1]) out.push(m[1]);
  out.push(s);
  const first = s.indexOf("{");
  const last = s.lastIndexOf("}");
  if (first >= 0 && last > first) out.push(s.slice(first, last + 1));
  return out;
}

function pick(obj: Record<string, unknown>, keys: string[]): string | null {
  for (const k of keys) {
    const v = obj[k];
    if (typeof v === "string" && v.trim()) return v.trim();
  }
  return null;
}

const cleanSubject = (s: string | null) => {
  if (!s) return null;
  const one = s
    .replace(/\s*\n\s*/g, " ")
    .replace(/^["'“”]+|["'“”]+$/g, "")
    .trim();
  return one ? one.slice(0, REVIEW_SUBJECT_MAX) : null;
};

/** Prose without JSON: drop fences, a "Here is…:" preamble and wrapping quotes. */
function fromProse(s: string, wants: EnhanceWants): EnhanceResponse {
  let body = s.replace(/```[a-zA-Z]*\n?/g, "").trim();
  const lines = body.split("\n");
  if (lines.length > 1 && /:\s*$/.test(lines[0] ?? "") && (lines[0]?.length ?? 0) < 120) {
    body = lines.slice(1).join("\n").trim();
  }
  let subject: string | null = null;
  const labelled = /^\s*\**(?:subject|title)\**\s*:\s*(.+)\n+([\s\S]*)$/i.exec(body);
  if (labelled) {
    subject = labelled[1] ?? null;
    body = (labelled[2] ?? "").replace(/^\s*\**(?:review|text|review text)\**\s*:\s*/i, "");
  }
  body = body.replace(/^"([\s\S]*)"$/, "$1").trim();
  if (wants.text) {
    return {
      enhancedText: body || null,
      enhancedSubject: wants.subject ? cleanSubject(subject) : null,
    };
  }
  // Only a subject was asked for: the reply is the subject.
  return { enhancedText: null, enhancedSubject: cleanSubject(subject ?? body) };
}

/** The model's reply as the API's answer; parts not asked for are null, empty parts are null. */
export function parseEnhanceReply(
  content: string | null | undefined,
  wants: EnhanceWants,
): EnhanceResponse {
  const none: EnhanceResponse = { enhancedText: null, enhancedSubject: null };
  if (!content) return none;
  const s = stripThinking(content).trim();
  if (!s) return none;
  for (const c of jsonCandidates(s)) {
    let v: unknown;
    try {
      v = JSON.parse(c.trim());
    } catch {
      continue;
    }
    if (typeof v === "string") return fromProse(v, wants);
    if (!v || typeof v !== "object" || Array.isArray(v)) continue;
    const obj = v as Record<string, unknown>;
    let text = pick(obj, TEXT_KEYS);
    const subject = pick(obj, SUBJECT_KEYS);
    if (wants.text && !text && !subject) {
      // Unknown key names: the longest string value is the review.
      const strings = Object.values(obj).filter((x): x is string => typeof x === "string");
      text = strings.sort((a, b) => b.length - a.length)[0]?.trim() || null;
    }
    return {
      enhancedText: wants.text ? text : null,
      enhancedSubject: wants.subject ? cleanSubject(subject) : null,
    };
  }
  return fromProse(s, wants);
}
