/**
 * Account Settings → Shipment Tracking (docs/screens.md, docs/behaviour.md#validation, docs/messages.md, docs/behaviour.md#constants-and-limits): the time zone and the daily time of
 * the carrier check, Save Preferences. Until a zone is saved the tab offers the browser's zone when
 * it is one of the listed zones, else America/Chicago; the time starts at 9:00 AM. A saved zone
 * that is not in the list (one saved from the browser) is shown as it is rather than replaced.
 */

import { type FormEvent, useState } from "react";
import {
  CARRIER_LABELS,
  CARRIERS,
  type Carrier,
  TRACKING_TIMEZONES,
} from "../../../src/contract/constants.ts";
import { FormError } from "../../components/FormError.tsx";
import { useSaveTrackingPreferences, useTrackingPreferences } from "../../hooks/useTracking.ts";
import {
  defaultPreferenceTimeZone,
  detectBrowserTimeZone,
  isPreferenceTimeZone,
  TIMEZONE_LABELS,
  TRACKING_TIME_OPTIONS,
} from "../../lib/timezone.ts";
import { preferencesProblem } from "../../lib/tracking-toasts.ts";
import "../../styles/tracking.css";
import { SelectField } from "../../components/Field.tsx";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { usePublicConfig } from "../../hooks/usePublicConfig.ts";

type Form = { timezone: string; updateTime: string };

/** "2:30 PM" for "14:30". */
const timeLabel = (value: string) =>
  TRACKING_TIME_OPTIONS.find((o) => o.value === value)?.label ?? value;

export function TrackingTab() {
  const prefs = useTrackingPreferences();
  const save = useSaveTrackingPreferences();
  const [draft, setDraft] = useState<Form | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (prefs.isLoading) {
    return <article aria-busy="true" aria-label="Loading tracking preferences" />;
  }
  if (prefs.isError || !prefs.data) {
    return (
      <LoadFailed
        message="Your tracking preferences could not be loaded."
        onRetry={prefs.refetch}
      />
    );
  }

  const saved: Form = {
    timezone: prefs.data.timezone ?? defaultPreferenceTimeZone(detectBrowserTimeZone()),
    updateTime: prefs.data.trackingUpdateTime,
  };
  const form = draft ?? saved;
  // A zone outside the list (saved from the browser) stays choosable, so saving the time alone
  // does not move the user to another zone.
  const extraZones = [saved.timezone, form.timezone].filter(
    (z, i, all) => z && !isPreferenceTimeZone(z) && all.indexOf(z) === i,
  );
  const extraTimes = [saved.updateTime, form.updateTime].filter(
    (t, i, all) => t && !TRACKING_TIME_OPTIONS.some((o) => o.value === t) && all.indexOf(t) === i,
  );

  function update(next: Partial<Form>) {
    setProblem(null);
    setDraft({ ...form, ...next });
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    const found = preferencesProblem(form.timezone, form.updateTime);
    setProblem(found);
    if (found) return;
    save.mutate(
      { timezone: form.timezone, updateTime: form.updateTime },
      { onSuccess: () => setDraft(null) },
    );
  }

  const busy = save.isPending;
  return (
    <article className="tracking-tab">
      <header>
        <h2>Shipment Tracking</h2>
      </header>
      <p>
        Once a day Grapevine asks the carriers about your orders. Only <strong>Shipped</strong>{" "}
        orders with a tracking number are checked, and they are marked <strong>Received</strong>{" "}
        automatically when the carrier reports them delivered.
      </p>
      <form onSubmit={submit} noValidate>
        <div className="grid">
          <SelectField
            label="Timezone"
            invalid={problem === "Please select a timezone"}
            hint="Dates everywhere in Grapevine are shown in this zone too."
            name="timezone"
            value={form.timezone}
            disabled={busy}
            onValue={(timezone) => update({ timezone })}
            options={[
              ...extraZones.map((z) => ({ value: z, label: z })),
              ...TRACKING_TIMEZONES.map((z) => ({ value: z, label: TIMEZONE_LABELS[z] })),
            ]}
          />
          <SelectField
            label="Daily update time"
            invalid={problem === "Please select a valid update time"}
            hint={
              <>
                Checked every day at {timeLabel(form.updateTime)} in{" "}
                {isPreferenceTimeZone(form.timezone)
                  ? TIMEZONE_LABELS[form.timezone]
                  : form.timezone}
                .
              </>
            }
            name="updateTime"
            value={form.updateTime}
            disabled={busy}
            onValue={(updateTime) => update({ updateTime })}
            options={[...extraTimes.map((t) => ({ value: t, label: t })), ...TRACKING_TIME_OPTIONS]}
          />
        </div>
        <FormError>{problem}</FormError>
        <CarrierNote />
        <div className="button-row">
          <button type="submit" disabled={busy} aria-busy={busy || undefined}>
            Save Preferences
          </button>
        </div>
      </form>
    </article>
  );
}

/** Which carriers this installation can ask (GET /api/config), so nobody waits for a check that cannot happen. */
function CarrierNote() {
  const { data } = usePublicConfig();
  if (!data) return null;
  const lookups = CARRIERS.filter((c: Carrier) => data.trackingCarriers.includes(c));
  return (
    <p className="muted tracking-carriers">
      {lookups.length > 0
        ? `Carriers checked on this server: ${lookups.map((c) => CARRIER_LABELS[c]).join(", ")}.`
        : "No carrier look-ups are set up on this server yet, so Shipped orders are not checked."}
      {!lookups.includes("AMAZON") &&
        " Amazon Logistics orders are marked delivered from Amazon's own emails."}
    </p>
  );
}
