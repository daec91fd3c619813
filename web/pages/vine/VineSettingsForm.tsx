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
        <label>
          Tier
          <select
            name="tier"
            value={form.tier}
            onChange={(e) => setForm({ ...form, tier: e.currentTarget.value as VineTier })}
          >
            {VINE_TIERS.map((t) => (
              <option key={t}>{t}</option>
            ))}
          </select>
        </label>
        <label>
          Review rate rule
          <select
            name="rateRule"
            value={form.rateRule}
            onChange={(e) => setForm({ ...form, rateRule: e.currentTarget.value as RateRule })}
          >
            {RATE_RULES.map((r) => (
              <option key={r} value={r}>
                {RATE_RULE_LABELS[r]}
              </option>
            ))}
          </select>
          <small className="muted">{RATE_RULE_HINTS[form.rateRule]}</small>
        </label>
        <label>
          Evaluation period start day
          <input
            type="date"
            name="evaluationStart"
            value={form.evaluationStart ?? ""}
            onChange={(e) => setForm({ ...form, evaluationStart: e.currentTarget.value || null })}
          />
        </label>
        <label>
          Evaluation period start time
          <input
            type="time"
            name="evaluationStartTime"
            value={form.evaluationStartTime}
            onChange={(e) =>
              setForm({ ...form, evaluationStartTime: e.currentTarget.value || "00:00" })
            }
          />
        </label>
        <label>
          Evaluation period end day <small className="muted">(empty: six months)</small>
          <input
            type="date"
            name="evaluationEnd"
            value={form.evaluationEnd ?? ""}
            onChange={(e) => setForm({ ...form, evaluationEnd: e.currentTarget.value || null })}
          />
        </label>
        <label>
          Evaluation period end time
          <input
            type="time"
            name="evaluationEndTime"
            value={form.evaluationEndTime}
            onChange={(e) =>
              setForm({ ...form, evaluationEndTime: e.currentTarget.value || "23:59" })
            }
          />
        </label>
        {NUMBERS.map(({ field, label, suffix }) => (
          <label key={field}>
            {label}
            {suffix && <small className="muted"> ({suffix})</small>}
            <input
              type="number"
              name={field}
              inputMode="numeric"
              min={1}
              step={1}
              value={Number.isNaN(form[field]) ? "" : form[field]}
              onChange={(e) => setForm({ ...form, [field]: e.currentTarget.valueAsNumber })}
            />
          </label>
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
