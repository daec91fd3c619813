import { describe, expect, test } from "bun:test";
import { readDeliveryDay } from "./dates.ts";
import type { Marketplace } from "./types.ts";

/** A Wednesday. */
const REF = new Date("2025-05-07T09:00:00Z");

describe("readDeliveryDay: chrono-node in each marketplace's language", () => {
  test.each<[Marketplace, string, string]>([
    ["DE", "morgen", "2025-05-08"],
    ["DE", "Ankunft morgen", "2025-05-08"],
    ["DE", "Voraussichtlich am Mittwoch, 14. Mai", "2025-05-14"],
    ["DE", "Zustellung heute 10:00 - 14:00", "2025-05-07"],
    ["DE", "Zustellung: Montag", "2025-05-12"],
    ["FR", "demain", "2025-05-08"],
    ["FR", "Livraison prévue : jeudi 4 décembre", "2025-12-04"],
    ["FR", "Arrive aujourd'hui dans la tranche horaire suivante : 10:45 - 14:45", "2025-05-07"],
    ["CA", "Arrivée : demain", "2025-05-08"],
    ["IT", "domani", "2025-05-08"],
    ["IT", "martedì 24 marzo 2015", "2015-03-24"],
    ["IT", "mercoledì 11 febbraio 2015 - giovedì 12 febbraio 2015", "2015-02-12"],
    ["ES", "mañana", "2025-05-08"],
    ["ES", "Llegada entre el 3 y el 4 de octubre", "2025-10-04"],
    ["JP", "明日", "2025-05-08"],
    ["JP", "お届け予定日： 日曜日, 2013/06/02", "2013-06-02"],
    ["JP", "12月4日", "2025-12-04"],
    ["US", "Arriving Thursday", "2025-05-08"],
    ["US", "Thursday, May 8 - Saturday, May 10", "2025-05-10"],
  ])("%s %p → %s", (market, text, day) => {
    expect(readDeliveryDay(text, market, REF)).toBe(day);
  });

  test("button labels and other lines name no day", () => {
    expect(readDeliveryDay("Lieferung verfolgen", "DE", REF)).toBeNull();
    expect(readDeliveryDay("Track package", "US", REF)).toBeNull();
    expect(readDeliveryDay("Suivre votre colis", "FR", REF)).toBeNull();
    expect(readDeliveryDay("Bestellnr. 302-4417203-9150341", "DE", REF)).toBeNull();
  });
});
