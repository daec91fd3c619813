/**
 * The carrier look-up the tracking service uses (CarrierLookup in ./types.ts):
 * - UPS, FEDEX and USPS go to their own API when its credentials are set, otherwise to Ship24
 *   when SHIP24_API_KEY is set, otherwise answer "not-configured" with a message naming the
 *   variables (logged once an hour per carrier, not per order);
 * - AMAZON, OTHER and no carrier answer "unsupported" (Amazon Logistics has no public API; its
 *   orders move on Amazon's own delivery mail);
 * - every API has a gate (./limiter.ts): calls in flight, the hourly quota where there is one
 *   (USPS_HOURLY_LIMIT), and a pause after a 429 until its Retry-After;
 * - never throws: an unexpected error becomes "unreadable" and is logged.
 */
import type { Config } from "../config.ts";
import type { Carrier } from "../contract/constants.ts";
import type { Logger } from "../log.ts";
import { createFedexAdapter } from "./carriers/fedex.ts";
import { createShip24Adapter } from "./carriers/ship24.ts";
import { createUpsAdapter } from "./carriers/ups.ts";
import { createUspsAdapter } from "./carriers/usps.ts";
import { type AdapterDeps, fail } from "./http.ts";
import { createGate, type Gate } from "./limiter.ts";
import type { CarrierAdapter, CarrierLookup, TrackingOutcome } from "./types.ts";

/** A repeated notice (not configured, credentials refused, paused) is logged at most this often. */
const NOTICE_EVERY_MS = 3_600_000;

const OWN: readonly Carrier[] = ["UPS", "FEDEX", "USPS"];

export const AMAZON_MESSAGE =
  "Amazon Logistics has no public tracking API: these orders are marked delivered from Amazon's delivery mail";

export function createCarrierLookup(
  carriers: Config["carriers"],
  deps: { log: Logger; fetch?: typeof fetch; now?: () => number },
): CarrierLookup {
  const now = deps.now ?? Date.now;
  const log = deps.log;
  const adapterDeps: AdapterDeps = {
    fetch: deps.fetch ?? fetch,
    now,
    timeoutMs: carriers.timeoutMs,
  };
  const own: Record<string, CarrierAdapter> = {
    UPS: createUpsAdapter(carriers.ups, adapterDeps),
    FEDEX: createFedexAdapter(carriers.fedex, adapterDeps),
    USPS: createUspsAdapter(carriers.usps, adapterDeps),
  };
  const ship24 = createShip24Adapter(carriers.ship24, adapterDeps);
  const gates = new Map<string, Gate>();
  for (const a of [...Object.values(own), ship24]) {
    gates.set(
      a.id,
      createGate({
        name: a.id === "SHIP24" ? "Ship24" : a.id === "FEDEX" ? "FedEx" : a.id,
        concurrency: a.limits.concurrency,
        perHour: a.limits.perHour,
        now,
      }),
    );
  }

  const noticed = new Map<string, number>();
  function notice(key: string, level: "info" | "warn", msg: string) {
    const t = now();
    const last = noticed.get(key);
    if (last !== undefined && t - last < NOTICE_EVERY_MS) return;
    noticed.set(key, t);
    log[level]({ key }, msg);
  }

  function route(carrier: Carrier): { adapter: CarrierAdapter; via: "own" | "ship24" } | null {
    const a = own[carrier];
    if (a?.configured) return { adapter: a, via: "own" };
    if (ship24.configured) return { adapter: ship24, via: "ship24" };
    return null;
  }

  async function track(carrier: Carrier | null, trackingNumber: string): Promise<TrackingOutcome> {
    const number = trackingNumber.replace(/\s+/g, "").toUpperCase();
    if (!number) return fail("unsupported", "No tracking number to look up");
    if (carrier === "AMAZON") return fail("unsupported", AMAZON_MESSAGE);
    if (carrier === null || !OWN.includes(carrier)) {
      return fail(
        "unsupported",
        carrier === null
          ? "No carrier is set for this order, so there is nothing to look up"
          : "No carrier API for this carrier; use the tracking link",
      );
    }
    const r = route(carrier);
    if (!r) {
      const message = `${carrier} look-ups need ${carrier}_CLIENT_ID and ${carrier}_CLIENT_SECRET, or SHIP24_API_KEY (see docs/CARRIERS.md)`;
      notice(`not-configured:${carrier}`, "info", `${message}; ${carrier} orders are skipped`);
      return fail("not-configured", message);
    }
    const gate = gates.get(r.adapter.id) as Gate;
    let out: TrackingOutcome;
    try {
      out = await gate.run(() =>
        r.via === "ship24" ? ship24.trackAs(carrier, number) : r.adapter.track(number),
      );
    } catch (err) {
      log.error({ err, carrier }, "carrier look-up failed unexpectedly");
      return fail("unreadable", `${carrier} look-up failed unexpectedly`);
    }
    if (!out.ok) {
      if (out.reason === "rate-limited" && out.retryAfterMs !== undefined) {
        gate.pauseUntil(now() + out.retryAfterMs);
        notice(`rate-limited:${r.adapter.id}`, "info", out.message);
      } else if (out.reason === "auth-failed") {
        notice(`auth-failed:${r.adapter.id}`, "warn", out.message);
      }
      log.debug({ carrier, via: r.adapter.id, reason: out.reason }, out.message);
    }
    return out;
  }

  return {
    supported: () => OWN.filter((c) => route(c) !== null),
    track,
  };
}
