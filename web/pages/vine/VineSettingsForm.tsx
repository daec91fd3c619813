/** The Vine thresholds (GET/PUT /api/user/vine-settings); today's US values are the defaults. */
import { type FormEvent, useEffect, useState } from "react";
import {
  RATE_RULES,
  type RateRule,
  VINE_TIERS,
  type VineSettings,
  type VineTier,
} from "../../../src/contract/vine-constants.ts";
import { Field, InputField, SelectField } from "../../components/Field.tsx";
import { useSaveVineSettings, useVineSettings } from "../../hooks/useVine.ts";
import { type MessageId, translate, useT } from "../../i18n/index.ts";

type NumberField = Exclude<
  keyof VineSettings,
  | "tier"
  | "evaluationStart"
  | "evaluationEnd"
  | "evaluationStartTime"
  | "evaluationEndTime"
  | "rateRule"
>;
const NUMBERS: { field: NumberField; label: MessageId; suffix?: MessageId }[] = [
  { field: "rateWindowDays", label: "vine.settings.rateWindowDays", suffix: "vine.settings.days" },
  { field: "rateMinimum", label: "vine.settings.rateMinimum", suffix: "vine.settings.percent" },
  { field: "goldItems", label: "vine.settings.goldItems" },
  { field: "goldPercent", label: "vine.settings.goldPercent", suffix: "vine.settings.percent" },
  {
    field: "dailyLimitSilver",
    label: "vine.settings.dailyLimitSilver",
    suffix: "vine.settings.orders",
  },
  {
    field: "dailyLimitGold",
    label: "vine.settings.dailyLimitGold",
    suffix: "vine.settings.orders",
  },
];

/** The form's own names for the settings, in the server's messages too. */
const LABELS: Record<string, MessageId> = {
  ...Object.fromEntries(NUMBERS.map((n) => [n.field, n.label])),
  tier: "vine.settings.tier",
  evaluationStart: "vine.settings.evaluationStart",
  evaluationEnd: "vine.settings.evaluationEnd",
};
export const withFormLabels = (message: string): string =>
  message.replace(/\b(tier|evaluationStart|evaluationEnd|[a-z]+(?:[A-Z][a-z]+)+)\b/g, (name) => {
    const label = LABELS[name];
    return label ? translate("vine.settings.quoted", { label: translate(label) }) : name;
  });

export function VineSettingsForm() {
  const t = useT();
  const { data } = useVineSettings();
  const save = useSaveVineSettings(withFormLabels);
  const [form, setForm] = useState<VineSettings | null>(null);
  useEffect(() => {
    if (data) setForm(data);
  }, [data]);
  if (!form) return <p aria-busy="true">{t("vine.settings.loading")}</p>;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate({
      ...form,
      evaluationStart: form.evaluationStart || null,
      evaluationEnd: form.evaluationEnd || null,
    });
  };
  return (
    <form className="vine-settings" onSubmit={submit}>
      <div className="vine-settings-grid">
        <SelectField
          label={t("vine.settings.tier")}
          name="tier"
          value={form.tier}
          onValue={(tier) => setForm({ ...form, tier: tier as VineTier })}
          options={VINE_TIERS.map((tier) => ({ value: tier, label: t(`vine.tier.${tier}`) }))}
        />
        <SelectField
          label={t("vine.settings.rateRule")}
          hint={t(`vine.rateRule.hint.${form.rateRule}`)}
          name="rateRule"
          value={form.rateRule}
          onValue={(rateRule) => setForm({ ...form, rateRule: rateRule as RateRule })}
          options={RATE_RULES.map((r) => ({ value: r, label: t(`vine.rateRule.${r}`) }))}
        />
        <InputField
          label={t("vine.settings.startDay")}
          type="date"
          name="evaluationStart"
          value={form.evaluationStart ?? ""}
          onValue={(v) => setForm({ ...form, evaluationStart: v || null })}
        />
        <InputField
          label={t("vine.settings.startTime")}
          type="time"
          name="evaluationStartTime"
          value={form.evaluationStartTime}
          onValue={(v) => setForm({ ...form, evaluationStartTime: v || "00:00" })}
        />
        <InputField
          label={
            <>
              {t("vine.settings.endDay")}{" "}
              <small className="muted">{t("vine.settings.endDayHint")}</small>
            </>
          }
          type="date"
          name="evaluationEnd"
          value={form.evaluationEnd ?? ""}
          onValue={(v) => setForm({ ...form, evaluationEnd: v || null })}
        />
        <InputField
          label={t("vine.settings.endTime")}
          type="time"
          name="evaluationEndTime"
          value={form.evaluationEndTime}
          onValue={(v) => setForm({ ...form, evaluationEndTime: v || "23:59" })}
        />
        {NUMBERS.map(({ field, label, suffix }) => (
          <Field
            key={field}
            label={
              <>
                {t(label)}
                {suffix && <small className="muted"> ({t(suffix)})</small>}
              </>
            }
            control={(a) => (
              <input
                {...a}
                type="number"
                name={field}
                inputMode="numeric"
                min={1}
                step={1}
                value={Number.isNaN(form[field]) ? "" : form[field]}
                onChange={(e) => setForm({ ...form, [field]: e.currentTarget.valueAsNumber })}
              />
            )}
          />
        ))}
      </div>
      <p className="muted">{t("vine.settings.note")}</p>
      <button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
        {t("vine.settings.save")}
      </button>
    </form>
  );
}
