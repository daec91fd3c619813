/**
 * USPS Tracking v3 (developers.usps.com, "OAuth 2.0" v3 and "Tracking" v3; the old Web Tools API
 * closed on 25 January 2026):
 * - token: POST {base}/oauth2/v3/token, form grant_type=client_credentials, client_id,
 *   client_secret → {access_token, token_type: "Bearer", expires_in: 28799, status, scope, …};
 * - track: GET {base}/tracking/v3/tracking/{trackingNumber}?expand=DETAIL with Bearer token →
 *   {trackingNumber, statusCategory ("Delivered", "In Transit", …), status, statusSummary,
 *   expectedDeliveryTimeStamp / predictedDeliveryTimeStamp / predictedDeliveryDate,
 *   trackingEvents[] (latest first) {eventType, eventTimestamp (local), GMTTimestamp, GMTOffset,
 *   eventCity, eventState, eventCountry, eventCode ("01" = delivered)}}. Errors are
 *   {apiVersion, error: {code, message, errors[]}}; an unknown number is a 404.
 * The tracking API allows about 60 calls an hour per app unless USPS grants more
 * (USPS_HOURLY_LIMIT); the quota is kept by the lookup (src/tracking/lookup.ts).
 */
import type { Config } from "../../config.ts";
import {
  type AdapterDeps,
  arr,
  errorText,
  fail,
  isoDay,
  notConfigured,
  obj,
  place,
  send,
  sentenceCase,
  str,
  toOutcome,
  tracked,
  unreadable,
} from "../http.ts";
import { authorized, createTokenCache, formClientCredentials } from "../oauth.ts";
import type { CarrierAdapter, TrackingEvent, TrackingOutcome } from "../types.ts";

const NAME = "USPS";

/** Local timestamp + "-05:00" → ISO with offset; a timestamp that has a zone is kept as it is. */
function withOffset(local: string | null, offset: unknown): string | null {
  if (!local) return null;
  if (/(Z|[+-]\d{2}:?\d{2})$/.test(local)) return local;
  return typeof offset === "string" && /^[+-]\d{2}:\d{2}$/.test(offset)
    ? `${local}${offset}`
    : local;
}

export function parseUsps(body: unknown): TrackingOutcome {
  const b = obj(body);
  if (!b) return unreadable(NAME);
  const err = obj(b.error);
  if (err) {
    if (str(err.code) === "404" || /could not locate|not found/i.test(errorText(b) ?? ""))
      return fail("not-found", "USPS does not know this tracking number (yet)");
    return fail(
      "unreadable",
      `USPS could not track this number: ${errorText(b) ?? "unknown error"}`,
    );
  }
  const raw = arr(b.trackingEvents);
  const category = str(b.statusCategory);
  if (!raw && !category) return unreadable(NAME);
  const evs = (raw ?? []).map(obj).filter((e) => e !== null);
  const events: TrackingEvent[] = evs.map((e) => ({
    time: withOffset(str(e.eventTimestamp), e.GMTOffset) ?? str(e.GMTTimestamp),
    description: sentenceCase(str(e.eventType) ?? "Update"),
    location: place(str(e.eventCity), str(e.eventState), str(e.eventCountry)),
  }));
  const isDeliveredEvent = (e: Record<string, unknown>) =>
    str(e.eventCode) === "01" || /^delivered\b/i.test(str(e.eventType) ?? "");
  const delivered =
    /^delivered$/i.test(category ?? "") || (evs[0] ? isDeliveredEvent(evs[0]) : false);
  const d = evs.find(isDeliveredEvent);
  const deliveredAt =
    delivered && d ? (withOffset(str(d.eventTimestamp), d.GMTOffset) ?? str(d.GMTTimestamp)) : null;
  const expectedDelivery = delivered
    ? null
    : (isoDay(b.expectedDeliveryTimeStamp) ??
      isoDay(b.predictedDeliveryTimeStamp) ??
      isoDay(b.predictedDeliveryDate) ??
      isoDay(b.expectedDeliveryDate));
  const text = sentenceCase(str(b.status) ?? events[0]?.description ?? category ?? "");
  const where = events[0]?.location ?? null;
  // USPS's status often names the place already ("Arrived at USPS Facility - AUSTIN, TX").
  // Status categories: "Alert" (an exception), "Delivery Attempt", "Return to Sender".
  const problem = delivered
    ? null
    : /return(?:ed)? to sender/i.test(`${category ?? ""} ${text}`)
      ? "returned"
      : /^alert$/i.test(category ?? "")
        ? "exception"
        : /^delivery attempt$/i.test(category ?? "")
          ? "failed-attempt"
          : null;
  // A text with " - " names its place already: the line is the text as it is.
  const placed = !delivered && text.includes(" - ");
  return tracked({
    delivered,
    deliveredAt,
    expectedDelivery,
    text,
    where,
    events,
    problem,
    words: { problem: category || "Alert" },
    ...(placed ? { status: problem ? text : `In transit: ${text}` } : {}),
  });
}

export function createUspsAdapter(
  creds: Config["carriers"]["usps"],
  deps: AdapterDeps,
): CarrierAdapter {
  const configured = Boolean(creds.clientId && creds.clientSecret);
  const tokens = createTokenCache({
    name: NAME,
    envPrefix: "USPS",
    deps,
    request: () => formClientCredentials(`${creds.baseUrl}/oauth2/v3/token`, creds),
  });

  return {
    id: "USPS",
    configured,
    limits: { concurrency: 4, perHour: creds.hourlyLimit },
    async track(trackingNumber, signal) {
      if (!configured) return notConfigured(NAME, ["USPS_CLIENT_ID", "USPS_CLIENT_SECRET"]);
      const url = `${creds.baseUrl}/tracking/v3/tracking/${encodeURIComponent(trackingNumber)}?expand=DETAIL`;
      const a = await authorized(
        NAME,
        "USPS",
        tokens,
        (token) =>
          send(
            deps,
            NAME,
            url,
            {
              method: "GET",
              headers: { authorization: `Bearer ${token}`, accept: "application/json" },
            },
            signal,
          ),
        signal,
      );
      return toOutcome(NAME, a, deps.now(), {
        notFound: "USPS does not know this tracking number (yet)",
        parse: parseUsps,
      });
    },
  };
}
