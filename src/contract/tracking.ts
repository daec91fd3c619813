/** Carrier tracking (docs/behaviour.md#data, docs/behaviour.md#validation, docs/api.md): preferences and the update calls. */
import { z } from "zod";
import { TRACKING_TIME_RE } from "./constants.ts";
import { says } from "./errors.ts";
import type { Order } from "./orders.ts";
import type { TextPart, TextValue } from "./text.ts";

/** POST /api/tracking/preferences. timezone: any IANA zone (the tab offers TRACKING_TIMEZONES). */
export const trackingPreferencesBody = z.object({
  timezone: z
    .string({ error: () => says("timezone_select") })
    .trim()
    .min(1, says("timezone_select"))
    .max(64, says("timezone_select")),
  updateTime: z
    .string({ error: () => says("update_time_select") })
    .trim()
    .regex(TRACKING_TIME_RE, says("update_time_select")),
});
export type TrackingPreferencesBody = z.infer<typeof trackingPreferencesBody>;

/**
 * GET /api/tracking/preferences. timezone is null until the user (or their browser) saved one;
 * the tab then offers the browser's zone when listed, else TRACKING_FALLBACK_TIMEZONE (docs/behaviour.md#constants-and-limits).
 * trackingUpdateTime is DEFAULT_TRACKING_UPDATE_TIME until chosen.
 */
export type TrackingPreferences = { timezone: string | null; trackingUpdateTime: string };

/** POST /api/tracking/update-all. */
export type UpdateAllTrackingResponse = {
  /** Orders that became Received in this run. */
  deliveredOrders: number;
  /** Shipped orders with a tracking number that were looked at. */
  totalProcessed: number;
  /** Look-ups that got an answer from the carrier (delivered or not). */
  successfulUpdates: number;
  /** One line for people: what happened, including skipped carriers and failures (English). */
  message: string;
  /** The same, one text per sentence (src/contract/text.ts), for the reader's language. */
  messageParts: TextPart[];
};

/** POST /api/tracking/update-order/{id}. */
export type UpdateOrderTrackingResponse = {
  delivered: boolean;
  order: Order;
  /** Why the answer is incomplete (English), and its catalog id and values (src/contract/text.ts). */
  warning?: string;
  warningCode?: string;
  warningValues?: Record<string, TextValue>;
};
