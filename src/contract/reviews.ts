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

const tonePercent = (tone: string) =>
  z
    .number({ error: () => `${tone} must be a number from 0 to 100` })
    .int(`${tone} must be a whole number`)
    .min(0, `${tone} must be from 0 to 100`)
    .max(100, `${tone} must be from 0 to 100`);

/** PUT /api/user/review-settings (every field required; the form always sends all four). */
export const reviewSettingsBody = z.object({
  targetWordCount: z
    .number({ error: () => "targetWordCount must be a number" })
    .int("targetWordCount must be a whole number")
    .min(
      REVIEW_WORDS_MIN,
      `targetWordCount must be from ${REVIEW_WORDS_MIN} to ${REVIEW_WORDS_MAX}`,
    )
    .max(
      REVIEW_WORDS_MAX,
      `targetWordCount must be from ${REVIEW_WORDS_MIN} to ${REVIEW_WORDS_MAX}`,
    )
    .refine(
      (n) => n % REVIEW_WORDS_STEP === 0,
      `targetWordCount must be a multiple of ${REVIEW_WORDS_STEP}`,
    ),
  aiEditingOption: z.enum(AI_EDITING_OPTIONS, {
    error: () => `aiEditingOption must be one of: ${AI_EDITING_OPTIONS.join(", ")}`,
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
            ? `Unknown tone ${iss.keys.join(", ")}: the tones are ${TONES.join(", ")}`
            : `toneAllocation must give a percentage for each of: ${TONES.join(", ")}`,
      },
    )
    .superRefine((a, ctx) => {
      const total = Object.values(a).reduce((s, v) => s + v, 0);
      if (total !== TONE_TOTAL) {
        ctx.addIssue({
          code: "custom",
          message: `The tone total must equal ${TONE_TOTAL}: the tones add up to ${total}`,
        });
      }
    }),
  autoGenerateSubject: z.boolean({ error: () => "autoGenerateSubject must be true or false" }),
});

/** POST /api/orders/{id}/review/enhance. Messages match what the client maps (docs/messages.md). */
export const enhanceBody = z.object({
  requestType: z.enum(ENHANCE_REQUEST_TYPES, {
    error: () => "Invalid request type: use grammar or improve",
  }),
  text: z.string({ error: () => "text must be text" }).optional(),
  subject: z.string({ error: () => "subject must be text" }).optional(),
});
export type EnhanceBody = z.infer<typeof enhanceBody>;
export type EnhanceResponse = { enhancedText: string | null; enhancedSubject: string | null };

/** PUT /api/orders/{id}/review/images/order. */
export const reorderMediaBody = z.object({
  imageUrls: z
    .array(z.string({ error: () => "imageUrls must be a list of media URLs" }), {
      error: () => "imageUrls must be a list of media URLs",
    })
    .max(50, "imageUrls has too many entries"),
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
