/**
 * Account Settings → Shipment Tracking (docs/screens.md, docs/behaviour.md#validation, docs/messages.md, docs/behaviour.md#constants-and-limits): the time zone and the daily time of
 * the carrier check, Save Preferences. Until a zone is saved the tab offers the browser's zone when
 * it is one of the listed zones, else America/Chicago; the time starts at 9:00 AM. A saved zone
 * that is not in the list (one saved from the browser) is shown as it is rather than replaced.
 */

import { Trans } from "@lingui/react";
import { type FormEvent, useState } from "react";
import {
  CARRIER_LABELS,
  CARRIERS,
  type Carrier,
  TRACKING_TIMEZONES,
} from "../../../src/contract/constants.ts";
import { FormError } from "../../components/FormError.tsx";
import { useSaveTrackingPreferences, useTrackingPreferences } from "../../hooks/useTracking.ts";
import { currentLanguage, intlLocale, type MessageId, type T, useT } from "../../i18n/index.ts";
import {
  defaultPreferenceTimeZone,
  detectBrowserTimeZone,
  isPreferenceTimeZone,
  type PreferenceTimeZone,
  TRACKING_TIME_OPTIONS,
} from "../../lib/timezone.ts";
import { preferencesProblem } from "../../lib/tracking-toasts.ts";
import "../../styles/tracking.css";
import { SelectField } from "../../components/Field.tsx";
import { LoadFailed } from "../../components/LoadFailed.tsx";
import { usePublicConfig } from "../../hooks/usePublicConfig.ts";

type Form = { timezone: string; updateTime: string };

const ZONE_IDS: Record<PreferenceTimeZone, MessageId> = {
  "America/New_York": "trackingSettings.zone.newYork",
  "America/Chicago": "trackingSettings.zone.chicago",
  "America/Denver": "trackingSettings.zone.denver",
  "America/Los_Angeles": "trackingSettings.zone.losAngeles",
  "America/Phoenix": "trackingSettings.zone.phoenix",
  "America/Anchorage": "trackingSettings.zone.anchorage",
  "Pacific/Honolulu": "trackingSettings.zone.honolulu",
  "Europe/London": "trackingSettings.zone.london",
  "Europe/Paris": "trackingSettings.zone.paris",
  "Europe/Berlin": "trackingSettings.zone.berlin",
  "Asia/Tokyo": "trackingSettings.zone.tokyo",
  "Asia/Shanghai": "trackingSettings.zone.shanghai",
  "Australia/Sydney": "trackingSettings.zone.sydney",
};

/** A listed zone as the reader's language names it ("Central Time (Chicago)"). */
const zoneLabel = (t: T, zone: PreferenceTimeZone) => t(ZONE_IDS[zone]);

/**
 * "2:30 PM" for "14:30" in English (the spec's 12-hour labels); the reader's own clock in other
 * languages ("14:30", "14 h 30").
 */
function timeLabel(value: string): string {
  const listed = TRACKING_TIME_OPTIONS.find((o) => o.value === value)?.label;
  if (currentLanguage() === "en" || !/^\d{2}:\d{2}$/.test(value)) return listed ?? value;
  const [h, m] = value.split(":").map(Number);
  return clockFormat(intlLocale()).format(new Date(Date.UTC(2000, 0, 1, h, m)));
}

// One formatter per locale: the time select formats 48 times per render.
const clocks = new Map<string, Intl.DateTimeFormat>();
function clockFormat(locale: string): Intl.DateTimeFormat {
  let f = clocks.get(locale);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { hour: "numeric", minute: "2-digit", timeZone: "UTC" });
    clocks.set(locale, f);
  }
  return f;
}

export function TrackingTab() {
  const t = useT();
  const prefs = useTrackingPreferences();
  const save = useSaveTrackingPreferences();
  const [draft, setDraft] = useState<Form | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  if (prefs.isLoading) {
    return <article aria-busy="true" aria-label={t("trackingSettings.loading")} />;
  }
  if (prefs.isError || !prefs.data) {
    return <LoadFailed message={t("trackingSettings.loadFailed")} onRetry={prefs.refetch} />;
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
        <h2>{t("trackingSettings.title")}</h2>
      </header>
      <p>
        <Trans id="trackingSettings.intro" components={{ 0: <strong />, 1: <strong /> }} />
      </p>
      <form onSubmit={submit} noValidate>
        <div className="grid">
          <SelectField
            label={t("trackingSettings.timezone")}
            invalid={problem !== null && form.timezone.trim() === ""}
            hint={t("trackingSettings.timezoneHint")}
            name="timezone"
            value={form.timezone}
            disabled={busy}
            onValue={(timezone) => update({ timezone })}
            options={[
              ...extraZones.map((z) => ({ value: z, label: z })),
              ...TRACKING_TIMEZONES.map((z) => ({ value: z, label: zoneLabel(t, z) })),
            ]}
          />
          <SelectField
            label={t("trackingSettings.updateTime")}
            invalid={problem !== null && form.timezone.trim() !== ""}
            hint={t("trackingSettings.updateTimeHint", {
              time: timeLabel(form.updateTime),
              zone: isPreferenceTimeZone(form.timezone)
                ? zoneLabel(t, form.timezone)
                : form.timezone,
            })}
            name="updateTime"
            value={form.updateTime}
            disabled={busy}
            onValue={(updateTime) => update({ updateTime })}
            options={[
              ...extraTimes.map((x) => ({ value: x, label: x })),
              ...TRACKING_TIME_OPTIONS.map((o) => ({ value: o.value, label: timeLabel(o.value) })),
            ]}
          />
        </div>
        <FormError>{problem}</FormError>
        <CarrierNote />
        <div className="button-row">
          <button type="submit" disabled={busy} aria-busy={busy || undefined}>
            {t("trackingSettings.save")}
          </button>
        </div>
      </form>
    </article>
  );
}

/** Which carriers this installation can ask (GET /api/config), so nobody waits for a check that cannot happen. */
function CarrierNote() {
  const t = useT();
  const { data } = usePublicConfig();
  if (!data) return null;
  const lookups = CARRIERS.filter((c: Carrier) => data.trackingCarriers.includes(c));
  const carriers = lookups.map((c) => CARRIER_LABELS[c]).join(t("trackingSettings.listSeparator"));
  const amazon = lookups.includes("AMAZON");
  return (
    <p className="muted tracking-carriers">
      {lookups.length > 0
        ? amazon
          ? t("trackingSettings.carriers", { carriers })
          : t("trackingSettings.carriersNoAmazon", { carriers })
        : t("trackingSettings.noCarriers")}
    </p>
  );
}
