/**
 * AI enhancement of a review (docs/behaviour.md#states-and-transitions, docs/api.md, docs/messages.md): POST /api/orders/{id}/review/enhance.
 *
 * Rules, in the order they are checked:
 * - the order must be the caller's (404 "Order not found");
 * - text or subject must have content (400 "...required for enhancement");
 * - text up to ENHANCE_TEXT_MAX characters, subject up to REVIEW_SUBJECT_MAX (400 "...too long");
 * - an AI server must be configured (503);
 * - the user's AI editing option must not be None (403): nothing is sent unless they opted in;
 * - at most `hourlyLimit` calls per user in any hour (429 with Retry-After, in seconds).
 * Then one call to the AI server with only the product name, subject and text: its 429 → 429 with
 * its Retry-After; no answer in time → 408; any other failure → 502 with a message. Never 500.
 *
 * Logs carry lengths, timings and outcomes, never the review's words.
 */

import { buildEnhancePrompt, parseEnhanceReply } from "../../ai/enhance-prompt.ts";
import { type AiClient, AiFailure } from "../../ai/openai-client.ts";
import {
  ENHANCE_DEFAULT_RETRY_SECONDS,
  REVIEW_SUBJECT_MAX,
  type ReviewSettings,
} from "../../contract/constants.ts";
import type { EnhanceBody, EnhanceResponse } from "../../contract/reviews.ts";
import type { Logger } from "../../log.ts";
import { AppError, badRequest } from "../../util/errors.ts";
import { createRateWindow } from "../../util/rate-window.ts";

/** About 3,000 words: six times the longest target length (500 words), and well within a model. */
export const ENHANCE_TEXT_MAX = 20_000;
const HOUR_MS = 3_600_000;

/** A sliding one-hour window of calls per user (src/util/rate-window.ts; in memory). */
export function createHourlyLimiter(limit: number, now: () => number = Date.now) {
  const window = createRateWindow({ limit, windowMs: HOUR_MS, now });
  return {
    /** Counts a call and returns 0, or returns the seconds until the next call is allowed. */
    take(userId: number): number {
      const hit = window.hit(String(userId));
      return hit.ok ? 0 : Math.max(1, Math.ceil(hit.retryAfterMs / 1000));
    },
  };
}

export function createEnhanceService(deps: {
  /** null when no AI server is configured. */
  ai: AiClient | null;
  /** The caller's order (throws 404 "Order not found" for anyone else's). */
  getOrder: (userId: number, orderId: number) => { productname: string | null };
  settings: (userId: number) => ReviewSettings;
  hourlyLimit: number;
  timeoutMs: number;
  log: Logger;
  now?: () => number;
}) {
  const limiter = createHourlyLimiter(deps.hourlyLimit, deps.now);
  const clock = deps.now ?? Date.now;

  return {
    async enhance(
      userId: number,
      orderId: number,
      body: EnhanceBody,
      signal?: AbortSignal,
    ): Promise<EnhanceResponse> {
      const order = deps.getOrder(userId, orderId);
      const text = body.text?.trim() || null;
      const subject = body.subject?.trim() || null;
      if (!text && !subject) {
        throw badRequest("enhance_nothing");
      }
      if (text && text.length > ENHANCE_TEXT_MAX) {
        throw badRequest("enhance_text_too_long", { max: ENHANCE_TEXT_MAX, length: text.length });
      }
      if (subject && subject.length > REVIEW_SUBJECT_MAX) {
        throw badRequest("enhance_subject_too_long", {
          max: REVIEW_SUBJECT_MAX,
          length: subject.length,
        });
      }
      const ai = deps.ai;
      if (!ai) {
        throw new AppError(503, "ai_not_configured");
      }
      const settings = deps.settings(userId);
      if (settings.aiEditingOption === "None") {
        throw new AppError(403, "ai_editing_off");
      }
      const wait = limiter.take(userId);
      if (wait > 0) {
        throw new AppError(
          429,
          "enhance_hourly_limit",
          { limit: deps.hourlyLimit, seconds: wait },
          undefined,
          { "Retry-After": String(wait) },
        );
      }

      const prompt = buildEnhancePrompt({
        requestType: body.requestType,
        text,
        subject,
        productName: order.productname?.trim() || null,
        settings,
      });
      const started = clock();
      const facts = {
        userId,
        orderId,
        requestType: body.requestType,
        textChars: text?.length ?? 0,
        subjectChars: subject?.length ?? 0,
        generateSubject: prompt.generateSubject,
        model: ai.model,
      };
      let reply: string | null;
      try {
        reply = await ai.complete(prompt.messages, { temperature: prompt.temperature, signal });
      } catch (err) {
        const f = err instanceof AiFailure ? err : new AiFailure("failed", "The AI server failed");
        deps.log.warn(
          { ...facts, ms: clock() - started, kind: f.kind, upstreamStatus: f.upstreamStatus },
          `enhancement failed: ${f.message}`,
        );
        throw toAppError(f, deps.timeoutMs);
      }
      const result = parseEnhanceReply(reply, prompt.wants);
      deps.log.info(
        {
          ...facts,
          ms: clock() - started,
          replyChars: reply?.length ?? 0,
          gotText: result.enhancedText !== null,
          gotSubject: result.enhancedSubject !== null,
        },
        "review enhanced",
      );
      return result;
    },
  };
}

function toAppError(f: AiFailure, timeoutMs: number): AppError {
  switch (f.kind) {
    case "timeout":
      return new AppError(408, "ai_timeout", { seconds: Math.round(timeoutMs / 1000) });
    case "aborted":
      return new AppError(408, "enhance_cancelled");
    case "rate-limited": {
      const secs = f.retryAfterSeconds ?? ENHANCE_DEFAULT_RETRY_SECONDS;
      return new AppError(429, "ai_busy", { seconds: secs }, undefined, {
        "Retry-After": String(secs),
      });
    }
    default:
      return new AppError(502, "enhance_failed", { reason: f.message });
  }
}

export type EnhanceService = ReturnType<typeof createEnhanceService>;
