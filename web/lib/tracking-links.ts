/**
 * Tracking links (docs/screens.md): the carrier's public page for a tracking number. Its own module so the
 * carriers' page table loads with Edit Order, not with the first screen.
 */
import type { Carrier } from "../../src/contract/constants.ts";

/**
 * The carrier's public tracking page, or a multi-carrier tracker for OTHER (and for an unknown
 * carrier). Amazon Logistics numbers (TBA…) open Amazon's public tracker; any other number that
 * Amazon carries opens the order's progress tracker when the order number is known.
 * Null without a tracking number.
 */
export function trackingUrl(
  carrier: Carrier | null | undefined,
  trackingNumber: string | null | undefined,
  amazonOrderNumber?: string | null,
  /** The order's product link: its Amazon site is the one whose progress tracker opens. */
  productUrl?: string | null,
): string | null {
  const n = (trackingNumber ?? "").trim();
  if (!n) return null;
  const e = encodeURIComponent(n);
  switch (carrier) {
    case "UPS":
      return `https://www.ups.com/track?tracknum=${e}`;
    case "USPS":
      return `https://tools.usps.com/go/TrackConfirmAction?tLabels=${e}`;
    case "FEDEX":
      return `https://www.fedex.com/fedextrack/?trknbr=${e}`;
    case "AMAZON": {
      const orderNo = (amazonOrderNumber ?? "").trim();
      if (!/^TBA/i.test(n) && orderNo) {
        const site =
          /^https?:\/\/(?:[a-z0-9-]+\.)*(amazon\.(?:com|ca|co\.uk|de|fr|it|es|co\.jp|com\.au))\//i.exec(
            productUrl ?? "",
          )?.[1] ?? "amazon.com";
        return `https://www.${site.toLowerCase()}/progress-tracker/package?itemId=&orderId=${encodeURIComponent(orderNo)}`;
      }
      return `https://track.amazon.com/tracking/${e}`;
    }
    default: {
      const page = carrier ? CARRIER_TRACKING_PAGES[carrier] : undefined;
      return page ? page(e) : `https://parcelsapp.com/en/tracking/${e}`;
    }
  }
}

/** Public tracking pages of the other marketplaces' carriers (no look-ups: the link is all). */
const CARRIER_TRACKING_PAGES: Partial<Record<Carrier, (e: string) => string>> = {
  DHL: (e) => `https://www.dhl.com/global-en/home/tracking.html?tracking-id=${e}`,
  HERMES: (e) => `https://www.myhermes.de/empfangen/sendungsverfolgung/sendungsinformation#${e}`,
  EVRI: (e) => `https://www.evri.com/track/parcel/${e}`,
  DPD: (e) => `https://tracking.dpd.de/status/en_US/parcel/${e}`,
  GLS: (e) => `https://gls-group.com/GROUP/en/parcel-tracking?match=${e}`,
  ROYALMAIL: (e) => `https://www.royalmail.com/track-your-item#/tracking-results/${e}`,
  LAPOSTE: (e) => `https://www.laposte.fr/outils/suivre-vos-envois?code=${e}`,
  CHRONOPOST: (e) => `https://www.chronopost.fr/tracking-no-cms/suivi-page?listeNumerosLT=${e}`,
  CORREOS: (e) =>
    `https://www.correos.es/es/es/herramientas/localizador/envios/detalle?tracking-number=${e}`,
  SEUR: (e) => `https://www.seur.com/livetracking/?segOnlineIdentificador=${e}`,
  SDA: (e) =>
    `https://www.sda.it/wps/portal/Servizi_online/dettaglio-spedizione?locale=it&tracing.letteraVettura=${e}`,
  BRT: (e) => `https://vas.brt.it/vas/sped_det_show.hsm?referer=sped_numspe_par.htm&Nspediz=${e}`,
  POSTEITALIANE: (e) => `https://www.poste.it/cerca/index.html#/risultati-spedizioni/${e}`,
  YAMATO: (e) => `https://toi.kuronekoyamato.co.jp/cgi-bin/tneko?number00=1&number01=${e}`,
  SAGAWA: (e) => `https://k2k.sagawa-exp.co.jp/p/web/okurijosearch.do?okurijoNo=${e}`,
  JAPANPOST: (e) =>
    `https://trackings.post.japanpost.jp/services/srv/search/direct?reqCodeNo1=${e}&locale=en`,
  CANADAPOST: (e) =>
    `https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=${e}`,
  PUROLATOR: (e) => `https://www.purolator.com/en/shipping/tracker?pin=${e}`,
  AUSPOST: (e) => `https://auspost.com.au/mypost/track/details/${e}`,
};
