/** Reviews (docs/behaviour.md#data, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/api.md): settings, AI enhancement and media. */
import { z } from "zod";
import {
  AI_EDITING_OPTIONS,
  type Carrier,
  ENHANCE_REQUEST_TYPES,
  REVIEW_WORDS_MAX,
  REVIEW_WORDS_MIN,
  REVIEW_WORDS_STEP,
  TONE_TOTAL,
  TONES,
} from "./constants.ts";
import { says } from "./errors.ts";

const tonePercent = (tone: string) =>
  z
    .number({ error: () => says("number_from_to", { name: tone, min: 0, max: 100 }) })
    .int(says("whole_number", { name: tone }))
    .min(0, says("number_range", { name: tone, min: 0, max: 100 }))
    .max(100, says("number_range", { name: tone, min: 0, max: 100 }));

/** PUT /api/user/review-settings (every field required; the form always sends all four). */
export const reviewSettingsBody = z.object({
  targetWordCount: z
    .number({ error: () => says("number_required", { name: "targetWordCount" }) })
    .int(says("whole_number", { name: "targetWordCount" }))
    .min(
      REVIEW_WORDS_MIN,
      says("number_range", {
        name: "targetWordCount",
        min: REVIEW_WORDS_MIN,
        max: REVIEW_WORDS_MAX,
      }),
    )
    .max(
      REVIEW_WORDS_MAX,
      says("number_range", {
        name: "targetWordCount",
        min: REVIEW_WORDS_MIN,
        max: REVIEW_WORDS_MAX,
      }),
    )
    .refine(
      (n) => n % REVIEW_WORDS_STEP === 0,
      says("multiple_of", { name: "targetWordCount", step: REVIEW_WORDS_STEP }),
    ),
  aiEditingOption: z.enum(AI_EDITING_OPTIONS, {
    error: () =>
      says("name_one_of", { name: "aiEditingOption", values: AI_EDITING_OPTIONS.join(", ") }),
  }),
  toneAllocation: z
    .strictObject(
      Object.fromEntries(TONES.map((t) => [t, tonePercent(t)])) as Record<
        (typeof TONES)[number],
        ReturnType<typeof tonePercent>
      >,
      {
        error: (iss) =>
          iss.code === "unrecognized_keys"
            ? says("tone_unknown", { keys: iss.keys.join(", "), tones: TONES.join(", ") })
            : says("tone_allocation_missing", { tones: TONES.join(", ") }),
      },
    )
    .superRefine((a, ctx) => {
      const total = Object.values(a).reduce((s, v) => s + v, 0);
      if (total !== TONE_TOTAL) {
        ctx.addIssue({
          code: "custom",
          message: says("tone_total", { expected: TONE_TOTAL, total }),
        });
      }
    }),
  autoGenerateSubject: z.boolean({
    error: () => says("name_boolean", { name: "autoGenerateSubject" }),
  }),
});

/** POST /api/orders/{id}/review/enhance. Messages match what the client maps (docs/messages.md). */
export const enhanceBody = z.object({
  requestType: z.enum(ENHANCE_REQUEST_TYPES, {
    error: () => says("enhance_request_type"),
  }),
  text: z.string({ error: () => says("name_not_text", { name: "text" }) }).optional(),
  subject: z.string({ error: () => says("name_not_text", { name: "subject" }) }).optional(),
});
export type EnhanceBody = z.infer<typeof enhanceBody>;
export type EnhanceResponse = { enhancedText: string | null; enhancedSubject: string | null };

/** PUT /api/orders/{id}/review/images/order. */
export const reorderMediaBody = z.object({
  imageUrls: z
    .array(z.string({ error: () => says("media_urls_list") }), {
      error: () => says("media_urls_list"),
    })
    .max(50, says("media_urls_too_many")),
});
export type ReorderMediaBody = z.infer<typeof reorderMediaBody>;
/** POST /api/orders/{id}/review/images: the order's whole media list after the upload. */
export type UploadMediaResponse = { urls: string[] };

/**
 * GET /api/config: what this installation offers, hand-picked from the server's configuration for
 * the web app (no secrets).
 */
export type PublicConfig = {
  /** An OpenAI-compatible server is configured: the Enhance buttons can work. */
  aiAvailable: boolean;
  /** Carriers whose status can be looked up (own API keys, or through the aggregator). */
  trackingCarriers: Carrier[];
  /** Gmail sign-in with Google (OAuth) is set up; else only the app-password way is offered. */
  gmailOAuth: boolean;
};
