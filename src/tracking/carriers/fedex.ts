/**
 * FedEx Track API v1 (developer.fedex.com, "Track API" and "API Authorization"):
 * - token: POST {base}/oauth/token, form grant_type=client_credentials, client_id, client_secret →
 *   {access_token, token_type: "bearer", expires_in: 3599, scope};
 * - track: POST {base}/track/v1/trackingnumbers with Bearer token and {includeDetailedScans: true,
 *   trackingInfo: [{trackingNumberInfo: {trackingNumber}}]} → output.completeTrackResults[0]
 *   .trackResults[0]: latestStatusDetail {code, description, scanLocation}, dateAndTimes[] {type:
 *   ESTIMATED_DELIVERY | ACTUAL_DELIVERY | …, dateTime}, estimatedDeliveryTimeWindow.window,
 *   scanEvents[] (latest first) {date, eventDescription, scanLocation}. Delivered when
 *   latestStatusDetail.code is "DL". An unknown number is a 200 whose trackResults[0].error.code
 *   is TRACKING.TRACKINGNUMBER.NOTFOUND.
 */
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
import { authorized, createTokenCache, formClientCredentials } from "../oauth.ts";
import type { CarrierAdapter, TrackingEvent, TrackingOutcome } from "../types.ts";

const NAME = "FedEx";

const loc = (l: unknown) => {
  const o = obj(l);
  return place(str(o?.city), str(o?.stateOrProvinceCode), str(o?.countryCode));
};

export function parseFedex(body: unknown): TrackingOutcome {
  const complete = obj(arr(obj(obj(body)?.output)?.completeTrackResults)?.[0]);
  const tr = obj(arr(complete?.trackResults)?.[0]);
  if (!tr) return unreadable(NAME);
  const error = obj(tr.error);
  if (error) {
    const code = str(error.code) ?? "";
    if (/NOTFOUND|NOT\.FOUND|INVALID/i.test(code))
      return fail("not-found", "FedEx does not know this tracking number (yet)");
    return fail("unreadable", `FedEx could not track this number: ${str(error.message) ?? code}`);
  }
  const latestStatus = obj(tr.latestStatusDetail);
  if (!latestStatus) return unreadable(NAME);
  const delivered = str(latestStatus.code) === "DL";
  const dates = (arr(tr.dateAndTimes) ?? []).map(obj).filter((d) => d !== null);
  const dateOf = (type: string) => str(dates.find((d) => d.type === type)?.dateTime);
  const events: TrackingEvent[] = (arr(tr.scanEvents) ?? [])
    .map(obj)
    .filter((e) => e !== null)
    .map((e) => ({
      time: str(e.date),
      description: sentenceCase(str(e.eventDescription) ?? "Update"),
      location: loc(e.scanLocation),
    }));
  const deliveredAt = delivered
    ? (dateOf("ACTUAL_DELIVERY") ?? events.find((_, i) => i === 0)?.time ?? null)
    : null;
  const window = obj(obj(tr.estimatedDeliveryTimeWindow)?.window);
  const expectedDelivery = delivered
    ? null
    : (isoDay(dateOf("ESTIMATED_DELIVERY")) ?? isoDay(window?.ends) ?? isoDay(window?.begins));
  const text = sentenceCase(
    str(latestStatus.description) ?? str(latestStatus.statusByLocale) ?? "",
  );
  const where = loc(latestStatus.scanLocation) ?? events[0]?.location ?? null;
  // Status codes: DE delivery exception (also a failed attempt), SE shipment exception, RS return
  // to shipper.
  const code = str(latestStatus.code) ?? str(latestStatus.derivedCode);
  const problem = delivered
    ? null
    : code === "DE" || code === "SE"
      ? "exception"
      : code === "RS"
        ? "returned"
        : null;
  return tracked({ delivered, deliveredAt, expectedDelivery, text, where, events, problem });
}

export function createFedexAdapter(creds: CarrierCredentials, deps: AdapterDeps): CarrierAdapter {
  const configured = Boolean(creds.clientId && creds.clientSecret);
  const tokens = createTokenCache({
    name: NAME,
    envPrefix: "FEDEX",
    deps,
    request: () => formClientCredentials(`${creds.baseUrl}/oauth/token`, creds),
  });

  return {
    id: "FEDEX",
    configured,
    limits: { concurrency: 4 },
    async track(trackingNumber, signal) {
      if (!configured) return notConfigured(NAME, ["FEDEX_CLIENT_ID", "FEDEX_CLIENT_SECRET"]);
      const body = JSON.stringify({
        includeDetailedScans: true,
        trackingInfo: [{ trackingNumberInfo: { trackingNumber } }],
      });
      const a = await authorized(
        NAME,
        "FEDEX",
        tokens,
        (token) =>
          send(
            deps,
            NAME,
            `${creds.baseUrl}/track/v1/trackingnumbers`,
            {
              method: "POST",
              headers: {
                authorization: `Bearer ${token}`,
                "content-type": "application/json",
                accept: "application/json",
                "x-locale": "en_US",
              },
              body,
            },
            signal,
          ),
        signal,
      );
      return toOutcome(NAME, a, deps.now(), {
        notFound: "FedEx does not know this tracking number (yet)",
        parse: parseFedex,
      });
    },
  };
}
