/**
 * Carrier look-ups behind one interface (docs/behaviour.md#carriers). Adapters live in ./carriers/;
 * `createCarrierLookup` (./lookup.ts) picks the adapter for an order's carrier, bounds calls in
 * flight and keeps each carrier's quota. Nothing here touches the database: the tracking service
 * (src/features/tracking) decides what an answer does to an order.
 */
import type { Carrier } from "../contract/constants.ts";

export type TrackingEvent = {
  /** ISO date-time as the carrier gave it (offset kept when given), or null. */
  time: string | null;
  description: string;
  location: string | null;
};

/**
 * Trouble the carrier reports with a parcel that is not delivered: an exception (damaged, address
 * not found, held), a failed delivery attempt, or the parcel going back to the sender.
 */
export type TrackingProblem = "exception" | "failed-attempt" | "returned";

/** What a carrier knows about one tracking number. */
export type TrackingResult = {
  delivered: boolean;
  /** ISO date-time of delivery when delivered and the carrier says when. */
  deliveredAt: string | null;
  /** YYYY-MM-DD the carrier expects to deliver (scheduled/estimated), or null. */
  expectedDelivery: string | null;
  /** One line for people, e.g. "Delivered, Front Door, AUSTIN TX" or "In transit: Arrived at facility". */
  status: string;
  /** Latest first, at most 10. */
  events: TrackingEvent[];
  /** Set when the carrier reports trouble (never with `delivered`); `status` then says what. */
  problem?: TrackingProblem | null;
};

/** Why a look-up gave no answer. None of these change the order; all are retried next run. */
export type TrackingFailureReason =
  | "not-configured" // no credentials for this carrier (skipped quietly, counted)
  | "unsupported" // OTHER / AMAZON / no carrier: nothing to ask
  | "not-found" // the carrier does not know the number (yet)
  | "auth-failed" // credentials refused (401/403 after one token renewal)
  | "rate-limited" // 429, or our own quota for the carrier is spent for now
  | "timeout"
  | "server-error" // 5xx or network failure
  | "unreadable"; // an answer we could not make sense of

export type TrackingOutcome =
  | { ok: true; result: TrackingResult }
  | {
      ok: false;
      reason: TrackingFailureReason;
      /** One line for logs and summaries; never contains credentials. */
      message: string;
      /** When the carrier (429 Retry-After) or our quota says when to try again. */
      retryAfterMs?: number;
    };

/** One carrier API (UPS, FedEx, USPS) or the aggregator (Ship24). */
export interface CarrierAdapter {
  /** "UPS" | "FEDEX" | "USPS" for carrier APIs; "SHIP24" for the aggregator. */
  readonly id: "UPS" | "FEDEX" | "USPS" | "SHIP24";
  /** True when the credentials it needs are set. */
  readonly configured: boolean;
  /** Most calls in flight at once, and (when the carrier has one) calls allowed per hour. */
  readonly limits: { concurrency: number; perHour?: number };
  /** Never throws: every failure is a TrackingOutcome with ok false. */
  track(trackingNumber: string, signal?: AbortSignal): Promise<TrackingOutcome>;
}

/** The entry point the tracking service uses. */
export interface CarrierLookup {
  /** Carriers whose status can be looked up right now (own keys or the aggregator). */
  supported(): Carrier[];
  /** Looks one number up with the right adapter, within concurrency and quota. Never throws. */
  track(carrier: Carrier | null, trackingNumber: string): Promise<TrackingOutcome>;
}
