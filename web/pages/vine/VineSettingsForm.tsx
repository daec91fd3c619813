/** The Vine thresholds (GET/PUT /api/user/vine-settings); today's US values are the defaults. */
import { type FormEvent, useEffect, useState } from "react";
import {
  RATE_RULE_HINTS,
  RATE_RULE_LABELS,
  RATE_RULES,
  type RateRule,
  VINE_TIERS,
  type VineSettings,
  type VineTier,
} from "../../../src/contract/vine-constants.ts";
import { Field, InputField, SelectField } from "../../components/Field.tsx";
import { useSaveVineSettings, useVineSettings } from "../../hooks/useVine.ts";

type NumberField = Exclude<
  keyof VineSettings,
  | "tier"
  | "evaluationStart"
  | "evaluationEnd"
  | "evaluationStartTime"
  | "evaluationEndTime"
  | "rateRule"
>;
const NUMBERS: { field: NumberField; label: string; suffix?: string }[] = [
  { field: "rateWindowDays", label: "Review rate window", suffix: "days" },
  { field: "rateMinimum", label: "Minimum review rate", suffix: "%" },
  { field: "goldItems", label: "Gold: reviews needed" },
  { field: "goldPercent", label: "Gold: review rate", suffix: "%" },
  { field: "dailyLimitSilver", label: "Daily limit (Silver)", suffix: "orders" },
  { field: "dailyLimitGold", label: "Daily limit (Gold)", suffix: "orders" },
];

/** The form's own names for the settings, in the server's messages too. */
const LABELS: Record<string, string> = {
  ...Object.fromEntries(NUMBERS.map((n) => [n.field, n.label])),
  tier: "Tier",
  evaluationStart: "Evaluation period starts",
  evaluationEnd: "Evaluation period ends",
};
export const withFormLabels = (message: string): string =>
  message.replace(/\b(tier|evaluationStart|evaluationEnd|[a-z]+(?:[A-Z][a-z]+)+)\b/g, (name) =>
    LABELS[name] ? `"${LABELS[name]}"` : name,
  );

export function VineSettingsForm() {
  const { data } = useVineSettings();
  const save = useSaveVineSettings(withFormLabels);
  const [form, setForm] = useState<VineSettings | null>(null);
  useEffect(() => {
    if (data) setForm(data);
  }, [data]);
  if (!form) return <p aria-busy="true">Loading settings…</p>;

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
          label="Tier"
          name="tier"
          value={form.tier}
          onValue={(tier) => setForm({ ...form, tier: tier as VineTier })}
          options={VINE_TIERS.map((t) => ({ value: t, label: t }))}
        />
        <SelectField
          label="Review rate rule"
          hint={RATE_RULE_HINTS[form.rateRule]}
          name="rateRule"
          value={form.rateRule}
          onValue={(rateRule) => setForm({ ...form, rateRule: rateRule as RateRule })}
          options={RATE_RULES.map((r) => ({ value: r, label: RATE_RULE_LABELS[r] }))}
        />
        <InputField
          label="Evaluation period start day"
          type="date"
          name="evaluationStart"
          value={form.evaluationStart ?? ""}
          onValue={(v) => setForm({ ...form, evaluationStart: v || null })}
        />
        <InputField
          label="Evaluation period start time"
          type="time"
          name="evaluationStartTime"
          value={form.evaluationStartTime}
          onValue={(v) => setForm({ ...form, evaluationStartTime: v || "00:00" })}
        />
        <InputField
          label={
            <>
              Evaluation period end day <small className="muted">(empty: six months)</small>
            </>
          }
          type="date"
          name="evaluationEnd"
          value={form.evaluationEnd ?? ""}
          onValue={(v) => setForm({ ...form, evaluationEnd: v || null })}
        />
        <InputField
          label="Evaluation period end time"
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
                {label}
                {suffix && <small className="muted"> ({suffix})</small>}
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
      <p className="muted">
        The evaluation period is the one your Vine account page shows, with its start and end times;
        once it ends, the next six-month period follows. Amazon changes these rules and they differ
        by country: the defaults are today's US values (Silver 3 items a day, Gold 8).
      </p>
      <button type="submit" disabled={save.isPending} aria-busy={save.isPending || undefined}>
        Save Vine Settings
      </button>
    </form>
  );
}
