/**
 * What a channel's deliveries list and its paused notice say, in the reader's language: the
 * server's text (`resultCode` + `resultValues`, `reasonCode` + `reasonValues`; docs/i18n.md
 * "Server texts") through the catalog, else the server's English words (rows from before texts).
 * The far side's own words are values and stay as they came.
 */
import type { AlertChannel, AlertDelivery } from "../../../../src/contract/alerts.ts";
import { translate } from "../../../i18n/index.ts";
import { serverSentence } from "../../../lib/server-text.ts";

/** "Waiting: not sent yet", "Failed: The webhook answered 502 (…)", or what the far side answered. */
export function deliveryResult(d: AlertDelivery): string {
  const result = d.result === null ? null : serverSentence(d.resultCode, d.resultValues, d.result);
  if (d.status === "pending") {
    return translate("alerts.deliveries.waiting", {
      result: result ?? translate("alerts.deliveries.notSent"),
    });
  }
  if (d.status === "failed") return translate("alerts.deliveries.failed", { result: result ?? "" });
  return result ?? "";
}

/** "Paused: No alert could be delivered for a day; …" */
export function pausedNotice(paused: NonNullable<AlertChannel["paused"]>): string {
  return translate("alerts.paused", {
    reason: serverSentence(paused.reasonCode, paused.reasonValues, paused.reason),
  });
}
