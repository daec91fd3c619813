/**
 * UPS Tracking API v1 (developer.ups.com, "Tracking" and "OAuth Client Credentials"):
 * - token: POST {base}/security/v1/oauth/token, HTTP Basic client id:secret, form
 *   grant_type=client_credentials → {access_token, expires_in (seconds, a string)};
 * - track: GET {base}/api/track/v1/details/{inquiryNumber}?locale=en_US with Bearer token and the
 *   required transId (≤ 32 characters, unique per request) and transactionSrc headers →
 *   trackResponse.shipment[0].package[0]: currentStatus {type, description}, deliveryDate[]
 *   {type: SDD scheduled | RDD rescheduled | DEL delivered, date YYYYMMDD}, deliveryTime
 *   {type, endTime HHMMSS}, activity[] (latest first) {date, time, gmtOffset, status {type,
 *   description}, location.address}. Delivered when currentStatus.type (or the latest activity's
 *   status type) is "D", or a deliveryDate of type DEL is given. Unknown number: 404 with
 *   response.errors[0].code TW0001 (also accepted as a warning on the shipment).
 */
import crypto from "node:crypto";
import type { CarrierCredentials } from "../../config.ts";
import {
  type AdapterDeps,
  arr,
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
import { authorized, createTokenCache } from "../oauth.ts";
import type { CarrierAdapter, TrackingEvent, TrackingOutcome } from "../types.ts";

const NAME = "UPS";

/** "20250714" + "134500" + "-05:00" → "2025-07-14T13:45:00-05:00". */
function upsTime(date: unknown, time: unknown, offset: unknown): string | null {
  const d = isoDay(date);
  if (!d) return null;
  const t = typeof time === "string" && /^\d{6}$/.test(time) ? time : null;
  if (!t) return d;
  const off = typeof offset === "string" && /^[+-]\d{2}:\d{2}$/.test(offset) ? offset : "";
  return `${d}T${t.slice(0, 2)}:${t.slice(2, 4)}:${t.slice(4, 6)}${off}`;
}

/** Reads a Track API answer (HTTP 200 body). */
export function parseUps(body: unknown): TrackingOutcome {
  const shipment = obj(arr(obj(obj(body)?.trackResponse)?.shipment)?.[0]);
  const warnings = arr(shipment?.warnings) ?? [];
  const pkg = obj(arr(shipment?.package)?.[0]);
  if (!pkg) {
    if (warnings.some((w) => str(obj(w)?.code) === "TW0001")) {
      return fail("not-found", "UPS does not know this tracking number (yet)");
    }
    return unreadable(NAME);
  }
  const activity = (arr(pkg.activity) ?? []).map(obj).filter((a) => a !== null);
  const current = obj(pkg.currentStatus);
  const dates = (arr(pkg.deliveryDate) ?? []).map(obj).filter((d) => d !== null);
  const delDate = dates.find((d) => d.type === "DEL");
  const first = activity[0];
  const delivered =
    str(current?.type) === "D" || str(obj(first?.status)?.type) === "D" || Boolean(delDate);
  if (!current && !first && !delDate) return unreadable(NAME);

  const events: TrackingEvent[] = activity.map((a) => {
    const addr = obj(obj(a.location)?.address);
    return {
      time: upsTime(a.date, a.time, a.gmtOffset),
      description: sentenceCase(str(obj(a.status)?.description) ?? "Update"),
      location: place(
        str(addr?.city),
        str(addr?.stateProvince),
        str(addr?.countryCode) ?? str(addr?.country),
      ),
    };
  });

  let deliveredAt: string | null = null;
  if (delivered) {
    const d = activity.find((a) => str(obj(a.status)?.type) === "D");
    if (d) deliveredAt = upsTime(d.date, d.time, d.gmtOffset);
    else if (delDate) {
      const dt = obj(pkg.deliveryTime);
      deliveredAt = upsTime(delDate.date, dt?.type === "DEL" ? dt.endTime : null, first?.gmtOffset);
    }
  }
  const expectedDelivery =
    isoDay(dates.find((d) => d.type === "RDD")?.date) ??
    isoDay(dates.find((d) => d.type === "SDD")?.date);

  const where = events[0]?.location ?? null;
  const text = sentenceCase(
    str(current?.description) ??
      str(current?.simplifiedTextDescription) ??
      events[0]?.description ??
      "",
  );
  // Status types (Tracking API): X exception (also a failed attempt), RS returned to shipper.
  const type = str(current?.type) ?? str(obj(first?.status)?.type);
  const problem = delivered ? null : type === "X" ? "exception" : type === "RS" ? "returned" : null;
  return tracked({
    delivered,
    deliveredAt,
    expectedDelivery,
    // A delivered parcel's line says so even when UPS's latest words are about something else.
    text: delivered && !/deliver/i.test(text) ? "" : text,
    where,
    events,
    problem,
    words: { problem: problem === "returned" ? "Returned to sender" : "Exception" },
  });
}

export function createUpsAdapter(creds: CarrierCredentials, deps: AdapterDeps): CarrierAdapter {
  const configured = Boolean(creds.clientId && creds.clientSecret);
  const tokens = createTokenCache({
    name: NAME,
    envPrefix: "UPS",
    deps,
    request: () => ({
      url: `${creds.baseUrl}/security/v1/oauth/token`,
      init: {
        method: "POST",
        headers: {
          authorization: `Basic ${Buffer.from(`${creds.clientId}:${creds.clientSecret}`).toString("base64")}`,
          "content-type": "application/x-www-form-urlencoded",
          accept: "application/json",
        },
        body: "grant_type=client_credentials",
      },
    }),
  });

  return {
    id: "UPS",
    configured,
    limits: { concurrency: 4 },
    async track(trackingNumber, signal) {
      if (!configured) return notConfigured(NAME, ["UPS_CLIENT_ID", "UPS_CLIENT_SECRET"]);
      const url = `${creds.baseUrl}/api/track/v1/details/${encodeURIComponent(trackingNumber)}?locale=en_US&returnSignature=false`;
      const a = await authorized(
        NAME,
        "UPS",
        tokens,
        (token) =>
          send(
            deps,
            NAME,
            url,
            {
              method: "GET",
              headers: {
                authorization: `Bearer ${token}`,
                accept: "application/json",
                transId: crypto.randomUUID().replaceAll("-", ""),
                transactionSrc: "grapevine",
              },
            },
            signal,
          ),
        signal,
      );
      return toOutcome(NAME, a, deps.now(), {
        notFound: "UPS does not know this tracking number (yet)",
        // An unknown number is a 400 whose error names it.
        refuse: (status, why) =>
          status === 400 && why && /inquiry number|tracking number/i.test(why)
            ? fail("not-found", `UPS: ${why}`)
            : null,
        parse: parseUps,
      });
    },
  };
}
