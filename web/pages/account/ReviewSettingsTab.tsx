/**
 * Account → Review Settings (docs/screens.md, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/messages.md): the target review length, the AI editing
 * option, the tone mix (only for Improve Writing, rebalanced by web/lib/tone-allocation.ts) and
 * subject generation. Dirty on any change; Reset Changes restores the server's values; Save
 * Settings is enabled only when dirty and not saving. Loaded on demand by AccountPage.
 */
import { type FormEvent, useEffect, useState } from "react";
import {
  AI_EDITING_OPTIONS,
  type AiEditingOption,
  REVIEW_WORDS_MAX,
  REVIEW_WORDS_MIN,
  REVIEW_WORDS_STEP,
  type ReviewSettings,
  TONE_TOTAL,
  TONES,
  type Tone,
} from "../../../src/contract/constants.ts";
import { Check, SelectField } from "../../components/Field.tsx";
import {
  REVIEW_SETTINGS_FETCH_FAILED,
  useReviewSettings,
  useSaveReviewSettings,
} from "../../hooks/useReviewSettings.ts";
import { toastError } from "../../lib/toast.tsx";
import {
  initialToneState,
  isValidAllocation,
  setTone,
  type ToneState,
  toneTotal,
} from "../../lib/tone-allocation.ts";
import "../../styles/review-settings.css";
import { usePublicConfig } from "../../hooks/usePublicConfig.ts";

const AI_OPTION_HINTS: Record<AiEditingOption, string> = {
  None: "No Enhance buttons; nothing is sent to an AI server.",
  "Grammar & Spelling": "Fixes grammar and spelling and keeps your own words.",
  "Improve Writing": "Rewrites toward your target length in the tone mix below.",
};

const toneLabel = (tone: Tone) => tone.charAt(0).toUpperCase() + tone.slice(1);

/** What the person is editing: the four values plus the tones' "least recently changed" order. */
type Draft = { settings: ReviewSettings; tones: ToneState };

export function ReviewSettingsTab() {
  const query = useReviewSettings();
  const save = useSaveReviewSettings();
  const [draft, setDraft] = useState<Draft | null>(null);

  // docs/messages.md: a failed fetch is a toast (once per failure), and the form offers to try again.
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError && errorUpdatedAt) toastError(error, REVIEW_SETTINGS_FETCH_FAILED);
  }, [isError, error, errorUpdatedAt]);

  if (query.isPending) {
    return (
      <article className="review-settings" aria-busy="true" aria-label="Loading review settings" />
    );
  }
  if (!query.data) {
    return (
      <article className="review-settings">
        <p role="alert">{REVIEW_SETTINGS_FETCH_FAILED}.</p>
        <button
          type="button"
          className="secondary"
          onClick={() => void query.refetch()}
          aria-busy={query.isFetching || undefined}
          disabled={query.isFetching}
        >
          Try again
        </button>
      </article>
    );
  }

  const saved = query.data;
  // Without changes the form shows the server's values (a save in another tab shows up here).
  const current: Draft = draft ?? {
    settings: saved,
    tones: initialToneState(saved.toneAllocation),
  };
  const form = current.settings;
  const dirty = draft !== null;
  const busy = save.isPending;
  const tonesValid = isValidAllocation(form.toneAllocation);

  const change = (patch: Partial<ReviewSettings>) =>
    setDraft({ ...current, settings: { ...form, ...patch } });
  const moveTone = (tone: Tone, value: number) => {
    const tones = setTone(current.tones, tone, value);
    setDraft({ tones, settings: { ...form, toneAllocation: tones.allocation } });
  };

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!dirty || busy || !tonesValid) return;
    const sent = form;
    save.mutate(sent, {
      // Saving clears the dirty flag, unless something changed while the request was out.
      onSuccess: () => setDraft((d) => (d?.settings === sent ? null : d)),
    });
  }

  return (
    <article className="review-settings" aria-labelledby="review-settings-title">
      <header>
        <h2 id="review-settings-title">Review Settings</h2>
        <p>How long your reviews should be, and how the AI helps you write them.</p>
      </header>
      <form onSubmit={submit}>
        <div className="rs-field">
          <div className="rs-slider-head">
            <label htmlFor="rs-words">Target review length</label>
            <output htmlFor="rs-words" className="rs-value">
              {form.targetWordCount} words
            </output>
          </div>
          <input
            id="rs-words"
            name="targetWordCount"
            type="range"
            min={REVIEW_WORDS_MIN}
            max={REVIEW_WORDS_MAX}
            step={REVIEW_WORDS_STEP}
            value={form.targetWordCount}
            aria-valuetext={`${form.targetWordCount} words`}
            aria-describedby="rs-words-hint"
            onChange={(e) => change({ targetWordCount: Number(e.currentTarget.value) })}
          />
          <small id="rs-words-hint">
            {REVIEW_WORDS_MIN} to {REVIEW_WORDS_MAX} words. The word counter on Edit Order turns
            green within 15% of this target and yellow within 30%.
          </small>
        </div>

        <div className="rs-field">
          <SelectField
            layout="stack"
            id="rs-ai"
            label="AI editing assistance"
            hint={
              <>
                {AI_OPTION_HINTS[form.aiEditingOption]}
                {form.aiEditingOption !== "None" &&
                  " Only the subject, the review text and the product name are sent."}
              </>
            }
            name="aiEditingOption"
            value={form.aiEditingOption}
            onValue={(v) => change({ aiEditingOption: v as AiEditingOption })}
            options={AI_EDITING_OPTIONS.map((o) => ({ value: o, label: o }))}
          />
          {form.aiEditingOption !== "None" && <AiServerNote />}
        </div>

        {form.aiEditingOption === "Improve Writing" && (
          <fieldset className="rs-tones" aria-describedby="rs-tones-hint">
            <legend>Tone mix</legend>
            <small id="rs-tones-hint">
              The tones always add up to {TONE_TOTAL}%. Raising one takes from the tones you changed
              least recently; lowering one gives to them.
            </small>
            <div className="rs-tone-grid">
              {TONES.map((tone) => {
                const value = form.toneAllocation[tone];
                const id = `rs-tone-${tone}`;
                return (
                  <div key={tone} className={value > 0 ? "rs-tone in-mix" : "rs-tone"}>
                    <div className="rs-slider-head">
                      <label htmlFor={id}>
                        <span className="rs-tick" aria-hidden="true">
                          {value > 0 ? "✓" : "\u00a0"}
                        </span>
                        {toneLabel(tone)}
                      </label>
                      <output htmlFor={id} className="rs-value">
                        {value}%
                      </output>
                    </div>
                    <input
                      id={id}
                      name={tone}
                      type="range"
                      min={0}
                      max={TONE_TOTAL}
                      step={1}
                      value={value}
                      aria-valuetext={`${value} percent`}
                      onChange={(e) => moveTone(tone, Number(e.currentTarget.value))}
                    />
                  </div>
                );
              })}
            </div>
            {!tonesValid && (
              <p className="field-error" role="alert">
                The tone total must equal {TONE_TOTAL} (it is {toneTotal(form.toneAllocation)}).
              </p>
            )}
          </fieldset>
        )}

        <Check
          labelClassName="rs-check"
          name="autoGenerateSubject"
          checked={form.autoGenerateSubject}
          aria-describedby="rs-subject-hint"
          onChecked={(on) => change({ autoGenerateSubject: on })}
          label="Auto-generate subject"
        />
        <small id="rs-subject-hint" className="rs-check-hint">
          When enhancing, the AI also writes a subject line from your review.
        </small>

        <div className="button-row rs-actions">
          <button
            type="button"
            className="secondary"
            disabled={!dirty || busy}
            onClick={() => setDraft(null)}
          >
            Reset Changes
          </button>
          <button
            type="submit"
            disabled={!dirty || busy || !tonesValid}
            aria-busy={busy || undefined}
          >
            Save Settings
          </button>
        </div>
      </form>
    </article>
  );
}

/** Says so when this installation has no AI server yet (GET /api/config), instead of surprising later. */
function AiServerNote() {
  const { data } = usePublicConfig();
  if (!data || data.aiAvailable) return null;
  return (
    <p className="rs-note">
      No AI server is set up on this Grapevine yet: the Enhance buttons will say so until the
      administrator configures one.
    </p>
  );
}
