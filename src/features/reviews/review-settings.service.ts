/**
 * Review settings (docs/behaviour.md#data, docs/behaviour.md#states-and-transitions, docs/api.md): target length, AI editing option, tone mix and subject
 * generation, per user. A user without a row has the defaults (AI editing None: nothing goes to an
 * AI server until the reviewer opts in). The AI enhancement service reads them through `get`.
 */
import {
  AI_EDITING_OPTIONS,
  type AiEditingOption,
  DEFAULT_REVIEW_SETTINGS,
  type ReviewSettings,
  TONE_TOTAL,
  TONES,
  type ToneAllocation,
} from "../../contract/constants.ts";
import type { ReviewSettingsRow } from "../../db/schema.ts";
import type { EventBus } from "../../events/bus.ts";
import type { ReviewSettingsRepo } from "./review-settings.repo.ts";

const isAiOption = (v: string): v is AiEditingOption =>
  (AI_EDITING_OPTIONS as readonly string[]).includes(v);

/** The stored JSON as a full allocation; anything unreadable or not summing to 100 → default. */
function parseTones(json: string): ToneAllocation {
  try {
    const raw = JSON.parse(json) as Record<string, unknown>;
    const tones = {} as ToneAllocation;
    let total = 0;
    for (const t of TONES) {
      const v = raw?.[t];
      if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > 100) throw new Error(t);
      tones[t] = v;
      total += v;
    }
    if (total !== TONE_TOTAL) throw new Error("total");
    return tones;
  } catch {
    return { ...DEFAULT_REVIEW_SETTINGS.toneAllocation };
  }
}

function toSettings(row: ReviewSettingsRow): ReviewSettings {
  return {
    targetWordCount: row.targetWordCount,
    aiEditingOption: isAiOption(row.aiEditingOption)
      ? row.aiEditingOption
      : DEFAULT_REVIEW_SETTINGS.aiEditingOption,
    toneAllocation: parseTones(row.toneAllocation),
    autoGenerateSubject: row.autoGenerateSubject,
  };
}

const defaults = (): ReviewSettings => ({
  ...DEFAULT_REVIEW_SETTINGS,
  toneAllocation: { ...DEFAULT_REVIEW_SETTINGS.toneAllocation },
});

export function createReviewSettingsService(deps: { repo: ReviewSettingsRepo; events: EventBus }) {
  const { repo, events } = deps;

  /** The user's settings, or the defaults when they never saved any. */
  function get(userId: number): ReviewSettings {
    const row = repo.find(userId);
    return row ? toSettings(row) : defaults();
  }

  return {
    get,

    /** Stores all four values (validated by the route's contract schema) and tells open tabs. */
    save(userId: number, body: ReviewSettings): ReviewSettings {
      const tones = Object.fromEntries(TONES.map((t) => [t, body.toneAllocation[t]]));
      const row = repo.upsert(userId, {
        targetWordCount: body.targetWordCount,
        aiEditingOption: body.aiEditingOption,
        toneAllocation: JSON.stringify(tones),
        autoGenerateSubject: body.autoGenerateSubject,
      });
      events.publish(userId, "review-settings.updated");
      return toSettings(row);
    },

    /** GET /api/user/export: the settings that apply (the defaults when none were saved). */
    exportSection: (userId: number): { reviewSettings: ReviewSettings } => ({
      reviewSettings: get(userId),
    }),
  };
}
export type ReviewSettingsService = ReturnType<typeof createReviewSettingsService>;
