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
import { useReviewSettings, useSaveReviewSettings } from "../../hooks/useReviewSettings.ts";
import { type MessageId, type T, translate, useT } from "../../i18n/index.ts";
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

const AI_OPTION_IDS: Record<AiEditingOption, { label: MessageId; hint: MessageId }> = {
  None: { label: "reviewSettings.ai.none", hint: "reviewSettings.ai.noneHint" },
  "Grammar & Spelling": {
    label: "reviewSettings.ai.grammar",
    hint: "reviewSettings.ai.grammarHint",
  },
  "Improve Writing": { label: "reviewSettings.ai.improve", hint: "reviewSettings.ai.improveHint" },
};

const TONE_IDS: Record<Tone, MessageId> = {
  humorous: "reviewSettings.tone.humorous",
  professional: "reviewSettings.tone.professional",
  friendly: "reviewSettings.tone.friendly",
  concise: "reviewSettings.tone.concise",
  encouraging: "reviewSettings.tone.encouraging",
  formal: "reviewSettings.tone.formal",
};

const toneLabel = (t: T, tone: Tone) => t(TONE_IDS[tone]);

/** What the person is editing: the four values plus the tones' "least recently changed" order. */
type Draft = { settings: ReviewSettings; tones: ToneState };

export function ReviewSettingsTab() {
  const t = useT();
  const query = useReviewSettings();
  const save = useSaveReviewSettings();
  const [draft, setDraft] = useState<Draft | null>(null);

  // docs/messages.md: a failed fetch is a toast (once per failure), and the form offers to try again.
  const { isError, error, errorUpdatedAt } = query;
  useEffect(() => {
    if (isError && errorUpdatedAt) toastError(error, translate("reviewSettings.fetchFailed"));
  }, [isError, error, errorUpdatedAt]);

  if (query.isPending) {
    return (
      <article
        className="review-settings"
        aria-busy="true"
        aria-label={t("reviewSettings.loading")}
      />
    );
  }
  if (!query.data) {
    return (
      <article className="review-settings">
        <p role="alert">{t("reviewSettings.fetchFailedSentence")}</p>
        <button
          type="button"
          className="secondary"
          onClick={() => void query.refetch()}
          aria-busy={query.isFetching || undefined}
          disabled={query.isFetching}
        >
          {t("reviewSettings.tryAgain")}
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
        <h2 id="review-settings-title">{t("account.tab.reviews")}</h2>
        <p>{t("reviewSettings.intro")}</p>
      </header>
      <form onSubmit={submit}>
        <div className="rs-field">
          <div className="rs-slider-head">
            <label htmlFor="rs-words">{t("reviewSettings.length")}</label>
            <output htmlFor="rs-words" className="rs-value">
              {t("reviewSettings.words", { count: form.targetWordCount })}
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
            aria-valuetext={t("reviewSettings.words", { count: form.targetWordCount })}
            aria-describedby="rs-words-hint"
            onChange={(e) => change({ targetWordCount: Number(e.currentTarget.value) })}
          />
          <small id="rs-words-hint">
            {t("reviewSettings.lengthHint", {
              min: REVIEW_WORDS_MIN,
              max: REVIEW_WORDS_MAX,
              green: 15,
              yellow: 30,
            })}
          </small>
        </div>

        <div className="rs-field">
          <SelectField
            layout="stack"
            id="rs-ai"
            label={t("reviewSettings.ai.label")}
            hint={
              form.aiEditingOption === "None"
                ? t(AI_OPTION_IDS.None.hint)
                : t("reviewSettings.ai.hintSent", {
                    hint: t(AI_OPTION_IDS[form.aiEditingOption].hint),
                  })
            }
            name="aiEditingOption"
            value={form.aiEditingOption}
            onValue={(v) => change({ aiEditingOption: v as AiEditingOption })}
            options={AI_EDITING_OPTIONS.map((o) => ({
              value: o,
              label: t(AI_OPTION_IDS[o].label),
            }))}
          />
          {form.aiEditingOption !== "None" && <AiServerNote />}
        </div>

        {form.aiEditingOption === "Improve Writing" && (
          <fieldset className="rs-tones" aria-describedby="rs-tones-hint">
            <legend>{t("reviewSettings.tones")}</legend>
            <small id="rs-tones-hint">{t("reviewSettings.tonesHint", { total: TONE_TOTAL })}</small>
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
                        {toneLabel(t, tone)}
                      </label>
                      <output htmlFor={id} className="rs-value">
                        {t("reviewSettings.percent", { value })}
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
                      aria-valuetext={t("reviewSettings.percentText", { value })}
                      onChange={(e) => moveTone(tone, Number(e.currentTarget.value))}
                    />
                  </div>
                );
              })}
            </div>
            {!tonesValid && (
              <p className="field-error" role="alert">
                {t("reviewSettings.tonesInvalid", {
                  total: TONE_TOTAL,
                  actual: toneTotal(form.toneAllocation),
                })}
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
          label={t("reviewSettings.subject")}
        />
        <small id="rs-subject-hint" className="rs-check-hint">
          {t("reviewSettings.subjectHint")}
        </small>

        <div className="button-row rs-actions">
          <button
            type="button"
            className="secondary"
            disabled={!dirty || busy}
            onClick={() => setDraft(null)}
          >
            {t("reviewSettings.reset")}
          </button>
          <button
            type="submit"
            disabled={!dirty || busy || !tonesValid}
            aria-busy={busy || undefined}
          >
            {t("reviewSettings.save")}
          </button>
        </div>
      </form>
    </article>
  );
}

/** Says so when this installation has no AI server yet (GET /api/config), instead of surprising later. */
function AiServerNote() {
  const t = useT();
  const { data } = usePublicConfig();
  if (!data || data.aiAvailable) return null;
  return <p className="rs-note">{t("reviewSettings.noAiServer")}</p>;
}
