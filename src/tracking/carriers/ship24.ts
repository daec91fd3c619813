/**
 * Ship24 Tracking API v1 (docs.ship24.com, "Create a tracker and get tracking results"), the
 * aggregator for carriers without their own credentials:
 * - POST {base}/public/v1/trackers/track with `Authorization: Bearer <SHIP24_API_KEY>` and
 *   {trackingNumber, courierCode?: [code]} → {data: {trackings: [{tracker, shipment
 *   {statusMilestone, delivery.estimatedDeliveryDate}, events[] (latest first) {status,
 *   occurrenceDatetime, datetime, utcOffset, location, statusMilestone}, statistics.timestamps
 *   .deliveredDatetime}]}}. Delivered when shipment.statusMilestone is "delivered". A number
 *   Ship24 knows nothing about yet is a tracker with no events (milestone "pending").
 * - Errors: {errors: [{code, message}], data: null}; a bad key is 401 (no token to renew).
 */
import type { Config } from "../../config.ts";
import type { Carrier } from "../../contract/constants.ts";
import {
  type AdapterDeps,
  arr,
  fail,
  isoDay,
  notConfigured,
  obj,
  send,
  sentenceCase,
  str,
  toOutcome,
  tracked,
  unreadable,
} from "../http.ts";
import type { CarrierAdapter, TrackingEvent, TrackingOutcome } from "../types.ts";

const NAME = "Ship24";

/** Ship24's courier codes for the carriers we offer. */
export const SHIP24_COURIER: Partial<Record<Carrier, string>> = {
  UPS: "ups",
  FEDEX: "fedex",
  USPS: "us-post",
};

export function parseShip24(body: unknown): TrackingOutcome {
  const t = obj(arr(obj(obj(body)?.data)?.trackings)?.[0]);
  const shipment = obj(t?.shipment);
  if (!t || !shipment) return unreadable(NAME);
  const evs = (arr(t.events) ?? []).map(obj).filter((e) => e !== null);
  const milestone = str(shipment.statusMilestone);
  if (evs.length === 0 && (!milestone || milestone === "pending")) {
    return fail("not-found", "Ship24 has no information about this tracking number yet");
  }
  const time = (e: Record<string, unknown>) => str(e.datetime) ?? str(e.occurrenceDatetime);
  const events: TrackingEvent[] = evs.map((e) => ({
    time: time(e),
    description: sentenceCase(str(e.status) ?? "Update"),
    location: str(e.location),
  }));
  const delivered = milestone === "delivered";
  const d = evs.find((e) => str(e.statusMilestone) === "delivered");
  const deliveredAt = delivered
    ? ((d && time(d)) ?? str(obj(obj(t.statistics)?.timestamps)?.deliveredDatetime))
    : null;
  const expectedDelivery = delivered ? null : isoDay(obj(shipment.delivery)?.estimatedDeliveryDate);
  const text =
    events[0]?.description ?? (milestone ? sentenceCase(milestone.replaceAll("_", " ")) : "");
  const where = events[0]?.location ?? null;
  // Milestones "exception" and "failed_attempt"; status codes exception_return* for a return.
  const problem = delivered
    ? null
    : /^exception_return/.test(str(shipment.statusCode) ?? "")
      ? "returned"
      : milestone === "exception"
        ? "exception"
        : milestone === "failed_attempt"
          ? "failed-attempt"
          : null;
  return tracked({ delivered, deliveredAt, expectedDelivery, text, where, events, problem });
}

export type Ship24Adapter = CarrierAdapter & {
  /** Like track(), telling Ship24 which courier the number belongs to. */
  trackAs(carrier: Carrier, trackingNumber: string, signal?: AbortSignal): Promise<TrackingOutcome>;
};

export function createShip24Adapter(
  creds: Config["carriers"]["ship24"],
  deps: AdapterDeps,
): Ship24Adapter {
  const configured = Boolean(creds.apiKey);

  async function call(trackingNumber: string, courier: string | undefined, signal?: AbortSignal) {
    if (!configured) return notConfigured(NAME, ["SHIP24_API_KEY"]);
    const a = await send(
      deps,
      NAME,
      `${creds.baseUrl}/public/v1/trackers/track`,
      {
        method: "POST",
        headers: {
          authorization: `Bearer ${creds.apiKey}`,
          "content-type": "application/json; charset=utf-8",
          accept: "application/json",
        },
        body: JSON.stringify(
          courier ? { trackingNumber, courierCode: [courier] } : { trackingNumber },
        ),
      },
      signal,
    );
    return toOutcome(NAME, a, deps.now(), {
      notFound: "Ship24 does not know this tracking number",
      okStatuses: [200, 201],
      refuse: (status) =>
        status === 401 || status === 403
          ? fail("auth-failed", `Ship24 refused our API key (HTTP ${status}); check SHIP24_API_KEY`)
          : null,
      parse: parseShip24,
    });
  }

  return {
    id: "SHIP24",
    configured,
    limits: { concurrency: 4 },
    track: (n, signal) => call(n, undefined, signal),
    trackAs: (carrier, n, signal) => call(n, SHIP24_COURIER[carrier], signal),
  };
}
