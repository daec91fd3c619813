/**
 * Fake carrier APIs for tests and benchmarks: one Bun.serve on 127.0.0.1 (free port) answering
 * UPS, FedEx, USPS and Ship24, each under its own path prefix, so each carrier's base URL works
 * with that carrier's documented paths:
 *
 *   UPS_BASE_URL    = {baseUrl}/ups      POST /security/v1/oauth/token, GET /api/track/v1/details/{n}
 *   FEDEX_BASE_URL  = {baseUrl}/fedex    POST /oauth/token,              POST /track/v1/trackingnumbers
 *   USPS_BASE_URL   = {baseUrl}/usps     POST /oauth2/v3/token,          GET /tracking/v3/tracking/{n}?expand=DETAIL
 *   SHIP24_BASE_URL = {baseUrl}/ship24   POST /public/v1/trackers/track (Authorization: Bearer <api key>)
 *
 * Shapes follow each carrier's public documentation (checked July 2025 against the developer
 * portals' OpenAPI descriptions and published client examples):
 * - UPS: developer.ups.com "OAuth Client Credentials" (POST /security/v1/oauth/token, HTTP Basic
 *   client id:secret, form grant_type=client_credentials → {token_type, issued_at, client_id,
 *   access_token, expires_in (seconds, as a string), status}) and "Tracking API" v1
 *   (GET /api/track/v1/details/{inquiryNumber}, headers transId + transactionSrc required →
 *   trackResponse.shipment[].package[] with currentStatus {type, code, description,
 *   simplifiedTextDescription}, deliveryDate[] {type: SDD | RDD | DEL, date: YYYYMMDD},
 *   deliveryTime {type, startTime, endTime: HHMMSS}, activity[] {date, time, gmtDate, gmtTime,
 *   gmtOffset, location.address, status {type: D | I | M | P | X, code, description}}; errors as
 *   {response: {errors: [{code, message}]}}, TW0001 "Tracking Information Not Found" with 404).
 * - FedEx: developer.fedex.com "API Authorization" (POST /oauth/token, form grant_type,
 *   client_id, client_secret → {access_token, token_type: "bearer", expires_in: 3599, scope:
 *   "CXS"}) and "Track API" v1 (POST /track/v1/trackingnumbers with {includeDetailedScans,
 *   trackingInfo: [{trackingNumberInfo: {trackingNumber}}]} → output.completeTrackResults[]
 *   .trackResults[] with latestStatusDetail {code: DL | IT | OD | ..., description, scanLocation},
 *   dateAndTimes [{type: ESTIMATED_DELIVERY | ACTUAL_DELIVERY | ACTUAL_PICKUP | SHIP, dateTime}],
 *   scanEvents [{date, eventType, eventDescription, scanLocation}]; an unknown number is a 200
 *   with trackResults[].error {code: TRACKING.TRACKINGNUMBER.NOTFOUND}; other errors are
 *   {transactionId, errors: [{code, message}]}, e.g. NOT.AUTHORIZED.ERROR with 401).
 * - USPS: developers.usps.com "OAuth 2.0" v3 (POST /oauth2/v3/token, client_id, client_secret,
 *   grant_type=client_credentials as JSON or form → {access_token, token_type: "Bearer",
 *   issued_at, expires_in: 28799, status: "approved", scope, ...}) and "Tracking" v3
 *   (GET /tracking/v3/tracking/{trackingNumber}?expand=DETAIL → {trackingNumber, statusCategory,
 *   status, statusSummary, expectedDeliveryTimeStamp, trackingEvents [{eventType,
 *   eventTimestamp, GMTTimestamp, eventCity, eventState, eventZIP, eventCountry, eventCode}]};
 *   errors as {apiVersion, error: {code, message, errors: [{status, code, title, detail}]}}).
 * - Ship24: docs.ship24.com "Create a tracker and get tracking results" (POST
 *   /public/v1/trackers/track, Bearer API key, {trackingNumber, courierCode?: string[]} →
 *   {data: {trackings: [{tracker, shipment {statusMilestone, delivery.estimatedDeliveryDate},
 *   events [{status, occurrenceDatetime, location, statusMilestone}], statistics.timestamps
 *   .deliveredDatetime}]}}; statusMilestone pending | info_received | in_transit |
 *   out_for_delivery | failed_attempt | available_for_pickup | delivered | exception; an unknown
 *   number is a tracker still "pending" without events; errors as {errors: [{code, message}],
 *   data: null}).
 *
 * Each tracking number gets a scenario (set(), or defaultScenario, "in-transit" unless told):
 *   in-transit, delivered, exception (the latest event a delivery exception: UPS status type X,
 *   FedEx DE, USPS category "Alert", Ship24 milestone "exception"), not-found, unauthorized (401 whatever the token), rate-limited (429 with
 *   Retry-After), server-error (500), slow (answers after slowMs, default 30 s, unless the client
 *   gives up first), malformed (a body cut off mid-JSON), unexpected (valid JSON of another shape).
 * A tracking call with a token it did not issue, or one that has expired (expireTokens()), is a
 * 401 in the carrier's shape. Token requests with other credentials than `env` are refused (401).
 *
 * In the test process:
 *   const fake = startFakeCarriers({ latencyMs: 50 });
 *   const config = loadConfig({ ...fake.env, DATA_DIR: dir });
 *   fake.set("1Z999AA10123456784", "delivered");
 *   fake.stats().maxInFlight.UPS; fake.stop();
 * From another process (e.g. the Playwright server), drive it over HTTP:
 *   POST {baseUrl}/__fake/scenario  {"number": "...", "scenario": "delivered", "deliveredAt"?: ISO,
 *                                    "expectedDelivery"?: "YYYY-MM-DD", "status"?: "..."}
 *   POST {baseUrl}/__fake/reset     GET {baseUrl}/__fake/stats
 */
import crypto from "node:crypto";

export type FakeCarrier = "UPS" | "FEDEX" | "USPS" | "SHIP24";

export const SCENARIOS = [
  "in-transit",
  "delivered",
  "exception",
  "not-found",
  "unauthorized",
  "rate-limited",
  "server-error",
  "slow",
  "malformed",
  "unexpected",
] as const;
export type Scenario = (typeof SCENARIOS)[number];

export type ScenarioSpec = {
  scenario: Scenario;
  /** YYYY-MM-DD the carrier expects to deliver (in-transit; default: 3 days from now). */
  expectedDelivery?: string;
  /** ISO date-time of delivery (delivered; default: an hour ago). */
  deliveredAt?: string;
  /** Status text of the latest event (default per scenario). */
  status?: string;
  /** Retry-After in seconds for rate-limited (default 60). */
  retryAfterSeconds?: number;
};

export type FakeCarrierStats = {
  /** Tracking calls answered (token requests not included), per carrier. */
  calls: Record<FakeCarrier, number>;
  /** The most tracking calls in flight at once, per carrier. */
  maxInFlight: Record<FakeCarrier, number>;
  /** Token requests (granted or refused), per carrier. */
  tokenRequests: Record<FakeCarrier, number>;
};

export type FakeCarrierRequest = {
  carrier: FakeCarrier;
  kind: "token" | "track";
  number: string | null;
  status: number;
};

export type FakeCarriers = {
  /** Environment for loadConfig: every carrier's base URL and credentials (Ship24 included). */
  env: Record<string, string>;
  baseUrl: string;
  set: (number: string, scenario: Scenario | ScenarioSpec) => void;
  /** Forgets every set() and the stats and request log; tokens stay valid. */
  reset: () => void;
  stats: () => FakeCarrierStats;
  /** Every request, in order (tokens never included). */
  requests: () => FakeCarrierRequest[];
  /** Every token it has issued is refused from now on (as if expired). */
  expireTokens: () => void;
  /** Lifetime of new tokens in seconds (default: each carrier's usual: UPS 14399, FedEx 3599, USPS 28799). */
  setTokenTtl: (seconds: number | null) => void;
  stop: () => void;
};

export const FAKE_CREDENTIALS = {
  UPS: { id: "fake-ups-client-id", secret: "fake-ups-client-secret" },
  FEDEX: { id: "fake-fedex-client-id", secret: "fake-fedex-client-secret" },
  USPS: { id: "fake-usps-consumer-key", secret: "fake-usps-consumer-secret" },
  SHIP24: { key: "apik_fake_ship24_key" },
} as const;

const DEFAULT_TTL: Record<Exclude<FakeCarrier, "SHIP24">, number> = {
  UPS: 14399,
  FEDEX: 3599,
  USPS: 28799,
};

const PREFIX: Record<string, FakeCarrier> = {
  ups: "UPS",
  fedex: "FEDEX",
  usps: "USPS",
  ship24: "SHIP24",
};

const zero = (): Record<FakeCarrier, number> => ({ UPS: 0, FEDEX: 0, USPS: 0, SHIP24: 0 });

export const normaliseNumber = (n: string) => n.replace(/[\s-]+/g, "").toUpperCase();

/** The fake's carriers stand in Eastern time (UTC-5) for every local time they give. */
const OFFSET_MIN = -300;
const OFFSET = "-05:00";

function localParts(iso: string) {
  const t = new Date(Date.parse(iso) + OFFSET_MIN * 60_000);
  const p = (n: number) => String(n).padStart(2, "0");
  const date = `${t.getUTCFullYear()}-${p(t.getUTCMonth() + 1)}-${p(t.getUTCDate())}`;
  const time = `${p(t.getUTCHours())}:${p(t.getUTCMinutes())}:${p(t.getUTCSeconds())}`;
  return { date, time, local: `${date}T${time}`, withOffset: `${date}T${time}${OFFSET}` };
}

function gmtParts(iso: string) {
  const d = new Date(iso).toISOString();
  return { date: d.slice(0, 10), time: d.slice(11, 19) };
}

const daysFromNow = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

type Ev = { at: string; text: string; city: string; state: string; zip: string; kind: string };

/** The story of one package, carrier-neutral; each carrier renders it in its own shape. */
function story(number: string, spec: ScenarioSpec) {
  const delivered = spec.scenario === "delivered";
  const deliveredAt = spec.deliveredAt ?? new Date(Date.now() - 3_600_000).toISOString();
  const base = delivered ? Date.parse(deliveredAt) : Date.now() - 2 * 3_600_000;
  const ago = (h: number) => new Date(base - h * 3_600_000).toISOString();
  const events: Ev[] = [
    {
      at: ago(50),
      text: "Shipment information sent to carrier",
      city: "LOUISVILLE",
      state: "KY",
      zip: "40209",
      kind: "M",
    },
    { at: ago(40), text: "Picked up", city: "LOUISVILLE", state: "KY", zip: "40209", kind: "P" },
    {
      at: ago(20),
      text: "Departed from facility",
      city: "MEMPHIS",
      state: "TN",
      zip: "38118",
      kind: "I",
    },
    {
      at: ago(delivered ? 6 : 0),
      text: "Arrived at facility",
      city: "AUSTIN",
      state: "TX",
      zip: "78744",
      kind: "I",
    },
  ];
  if (delivered) {
    events.push({
      at: ago(3),
      text: "Out for delivery",
      city: "AUSTIN",
      state: "TX",
      zip: "78701",
      kind: "O",
    });
    events.push({
      at: deliveredAt,
      text: spec.status ?? "Delivered, Front Door",
      city: "AUSTIN",
      state: "TX",
      zip: "78701",
      kind: "D",
    });
  } else if (spec.scenario === "exception") {
    events.push({
      at: ago(0),
      text: spec.status ?? "Delivery exception: the address could not be found",
      city: "AUSTIN",
      state: "TX",
      zip: "78701",
      kind: "X",
    });
  } else if (spec.status) {
    const last = events[events.length - 1] as Ev;
    last.text = spec.status;
  }
  events.reverse(); // latest first, as every carrier lists them
  return {
    number,
    delivered,
    deliveredAt: delivered ? deliveredAt : null,
    expectedDelivery: delivered ? null : (spec.expectedDelivery ?? daysFromNow(3)),
    events,
  };
}
type Story = ReturnType<typeof story>;

// ---- UPS (Tracking API v1) ----
function upsBody(s: Story) {
  const ymd = (d: string) => d.replaceAll("-", "");
  const hms = (t: string) => t.replaceAll(":", "");
  const statusOf = (e: Ev) => ({
    type: e.kind === "O" ? "I" : e.kind,
    description: e.kind === "D" ? "DELIVERED" : e.text.toUpperCase(),
    code: e.kind === "D" ? "FS" : "AR",
    statusCode: e.kind === "D" ? "011" : "005",
  });
  const latest = s.events[0] as Ev;
  const deliveryDate = s.delivered
    ? [{ type: "DEL", date: ymd(localParts(s.deliveredAt as string).date) }]
    : [{ type: "SDD", date: ymd(s.expectedDelivery as string) }];
  const deliveryTime = s.delivered
    ? { type: "DEL", endTime: hms(localParts(s.deliveredAt as string).time) }
    : { type: "EOD", endTime: "230000" };
  return {
    trackResponse: {
      shipment: [
        {
          inquiryNumber: s.number,
          package: [
            {
              trackingNumber: s.number,
              deliveryDate,
              deliveryTime,
              activity: s.events.map((e) => {
                const l = localParts(e.at);
                const g = gmtParts(e.at);
                return {
                  location: {
                    address: {
                      city: e.city,
                      stateProvince: e.state,
                      postalCode: e.zip,
                      country: "US",
                      countryCode: "US",
                    },
                    slic: "7361",
                  },
                  status: statusOf(e),
                  date: ymd(l.date),
                  time: hms(l.time),
                  gmtDate: ymd(g.date),
                  gmtOffset: OFFSET,
                  gmtTime: g.time,
                };
              }),
              currentStatus: {
                ...statusOf(latest),
                simplifiedTextDescription: s.delivered ? "Delivered" : "On the Way",
              },
              packageAddress: [
                {
                  type: "ORIGIN",
                  address: {
                    city: "LOUISVILLE",
                    stateProvince: "KY",
                    countryCode: "US",
                    country: "US",
                  },
                },
                {
                  type: "DESTINATION",
                  address: {
                    city: "AUSTIN",
                    stateProvince: "TX",
                    countryCode: "US",
                    country: "US",
                  },
                },
              ],
              weight: { unitOfMeasurement: "LBS", weight: "1.20" },
              service: { code: "003", levelCode: "GND", description: "UPS Ground" },
              packageCount: 1,
            },
          ],
        },
      ],
    },
  };
}
const upsError = (code: string, message: string) => ({ response: { errors: [{ code, message }] } });

// ---- FedEx (Track API v1) ----
function fedexBody(s: Story) {
  const latest = s.events[0] as Ev;
  const code = (e: Ev) =>
    ({ D: "DL", O: "OD", P: "PU", M: "OC", I: "IT", X: "DE" })[e.kind] ?? "IT";
  const loc = (e: Ev) => ({
    city: e.city,
    stateOrProvinceCode: e.state,
    postalCode: e.zip,
    countryCode: "US",
    residential: false,
    countryName: "United States",
  });
  const dateAndTimes: { type: string; dateTime: string }[] = [];
  if (s.delivered)
    dateAndTimes.push({
      type: "ACTUAL_DELIVERY",
      dateTime: localParts(s.deliveredAt as string).withOffset,
    });
  else
    dateAndTimes.push({
      type: "ESTIMATED_DELIVERY",
      dateTime: `${s.expectedDelivery}T00:00:00${OFFSET}`,
    });
  const first = s.events[s.events.length - 1] as Ev;
  dateAndTimes.push({ type: "SHIP", dateTime: localParts(first.at).withOffset });
  return {
    transactionId: crypto.randomUUID(),
    output: {
      completeTrackResults: [
        {
          trackingNumber: s.number,
          trackResults: [
            {
              trackingNumberInfo: {
                trackingNumber: s.number,
                trackingNumberUniqueId: `12029~${s.number}~FDEG`,
                carrierCode: "FDXG",
              },
              latestStatusDetail: {
                code: code(latest),
                derivedCode: code(latest),
                statusByLocale: s.delivered
                  ? "Delivered"
                  : latest.kind === "X"
                    ? "Delivery exception"
                    : "In transit",
                description: latest.text,
                scanLocation: loc(latest),
              },
              dateAndTimes,
              scanEvents: s.events.map((e) => ({
                date: localParts(e.at).withOffset,
                eventType: code(e),
                eventDescription: e.text,
                scanLocation: loc(e),
                derivedStatusCode: code(e),
                derivedStatus: e.kind === "D" ? "Delivered" : "In transit",
              })),
              serviceDetail: {
                type: "FEDEX_GROUND",
                description: "FedEx Ground",
                shortDescription: "FG",
              },
            },
          ],
        },
      ],
    },
  };
}
const fedexError = (code: string, message: string) => ({
  transactionId: crypto.randomUUID(),
  errors: [{ code, message }],
});

// ---- USPS (Tracking v3) ----
function uspsBody(s: Story) {
  const latest = s.events[0] as Ev;
  return {
    trackingNumber: s.number,
    mailClass: "USPS Ground Advantage",
    mailType: "DOMESTIC_MAIL",
    originCity: "LOUISVILLE",
    originState: "KY",
    originZIP: "40209",
    destinationCity: "AUSTIN",
    destinationState: "TX",
    destinationZIP: "78701",
    expectedDeliveryTimeStamp: s.expectedDelivery ? `${s.expectedDelivery}T21:00:00Z` : null,
    statusCategory: s.delivered ? "Delivered" : latest.kind === "X" ? "Alert" : "In Transit",
    status: s.delivered ? latest.text : `${latest.text} - ${latest.city}, ${latest.state}`,
    statusSummary: s.delivered
      ? `Your item was delivered at ${localParts(s.deliveredAt as string).time} on ${localParts(s.deliveredAt as string).date} in AUSTIN, TX 78701.`
      : `Your item arrived at our ${latest.city}, ${latest.state} facility.`,
    trackingEvents: s.events.map((e) => ({
      eventType: e.text,
      eventTimestamp: localParts(e.at).local,
      GMTTimestamp: new Date(e.at).toISOString().replace(/\.\d{3}Z$/, "Z"),
      GMTOffset: OFFSET,
      eventCountry: null,
      eventCity: e.city,
      eventState: e.state,
      eventZIP: e.zip,
      firm: null,
      name: null,
      authorizedAgent: false,
      eventCode: e.kind === "D" ? "01" : "10",
    })),
  };
}
const uspsError = (status: number, message: string, detail: string) => ({
  apiVersion: "/tracking/v3",
  error: {
    code: String(status),
    message,
    errors: [{ status: String(status), code: String(status), title: message, detail }],
  },
});

// ---- Ship24 (Tracking API v1) ----
function ship24Body(s: Story | null, number: string) {
  const milestone = (e: Ev) =>
    ({
      D: "delivered",
      O: "out_for_delivery",
      M: "info_received",
      P: "in_transit",
      I: "in_transit",
      X: "exception",
    })[e.kind] ?? "in_transit";
  const created = new Date().toISOString();
  const events = s
    ? s.events.map((e, i) => ({
        eventId: crypto.randomUUID(),
        trackingNumber: number,
        eventTrackingNumber: number,
        status: e.text,
        occurrenceDatetime: localParts(e.at).local,
        order: null,
        datetime: new Date(e.at).toISOString(),
        hasNoTime: false,
        utcOffset: OFFSET,
        location: `${e.city}, ${e.state}, US`,
        sourceCode: "ups-tracking",
        courierCode: "ups",
        statusCode: e.kind === "D" ? "delivery_delivered" : null,
        statusCategory: e.kind === "D" ? "delivery" : "transit",
        statusMilestone: milestone(e),
        position: i,
      }))
    : [];
  const latest = s?.events[0];
  return {
    data: {
      trackings: [
        {
          tracker: {
            trackerId: crypto.randomUUID(),
            trackingNumber: number,
            shipmentReference: null,
            courierCode: [],
            clientTrackerId: null,
            isSubscribed: false,
            isTracked: true,
            createdAt: created,
          },
          shipment: {
            shipmentId: s ? crypto.randomUUID() : null,
            statusCode: s?.delivered ? "delivery_delivered" : null,
            statusCategory: s ? (s.delivered ? "delivery" : "transit") : null,
            statusMilestone: latest ? milestone(latest) : "pending",
            originCountryCode: s ? "US" : null,
            destinationCountryCode: s ? "US" : null,
            delivery: {
              estimatedDeliveryDate: s?.expectedDelivery
                ? `${s.expectedDelivery}T00:00:00.000Z`
                : null,
              service: null,
              signedBy: null,
            },
            trackingNumbers: [{ tn: number }],
            recipient: { name: null, address: null, postCode: null, city: null, subdivision: null },
          },
          events,
          statistics: {
            timestamps: {
              infoReceivedDatetime: null,
              inTransitDatetime: null,
              outForDeliveryDatetime: null,
              failedAttemptDatetime: null,
              availableForPickupDatetime: null,
              exceptionDatetime: null,
              deliveredDatetime: s?.deliveredAt ? localParts(s.deliveredAt).local : null,
            },
          },
        },
      ],
    },
  };
}
const ship24Error = (code: string, message: string) => ({
  errors: [{ code, message }],
  data: null,
});

export function startFakeCarriers(
  opts: {
    latencyMs?: number;
    defaultScenario?: Scenario;
    /** How long "slow" takes to answer (ms, default 30 s); the client's timeout should win. */
    slowMs?: number;
  } = {},
): FakeCarriers {
  const latencyMs = opts.latencyMs ?? 0;
  const slowMs = opts.slowMs ?? 30_000;
  const defaultScenario: Scenario = opts.defaultScenario ?? "in-transit";
  const scenarios = new Map<string, ScenarioSpec>();
  const tokens = new Map<string, { carrier: FakeCarrier; expiresAt: number }>();
  let ttlOverride: number | null = null;
  let calls = zero();
  let maxInFlight = zero();
  let tokenRequests = zero();
  const inFlight = zero();
  let log: FakeCarrierRequest[] = [];

  const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { "content-type": "application/json", ...headers },
    });

  const sleep = (ms: number, signal: AbortSignal) =>
    new Promise<void>((resolve) => {
      if (ms <= 0) return resolve();
      const t = setTimeout(resolve, ms);
      signal.addEventListener("abort", () => {
        clearTimeout(t);
        resolve();
      });
    });

  const specFor = (number: string): ScenarioSpec =>
    scenarios.get(normaliseNumber(number)) ?? { scenario: defaultScenario };

  function issue(carrier: Exclude<FakeCarrier, "SHIP24">) {
    const ttl = ttlOverride ?? DEFAULT_TTL[carrier];
    const token = `fake-${carrier.toLowerCase()}-${crypto.randomBytes(18).toString("base64url")}`;
    tokens.set(token, { carrier, expiresAt: Date.now() + ttl * 1000 });
    return { token, ttl };
  }

  function bearerOk(req: Request, carrier: FakeCarrier): boolean {
    const m = /^Bearer\s+(\S+)$/i.exec(req.headers.get("authorization") ?? "");
    if (!m?.[1]) return false;
    if (carrier === "SHIP24") return m[1] === FAKE_CREDENTIALS.SHIP24.key;
    const t = tokens.get(m[1]);
    return Boolean(t && t.carrier === carrier && t.expiresAt > Date.now());
  }

  async function readForm(req: Request): Promise<Record<string, string>> {
    const text = await req.text();
    if ((req.headers.get("content-type") ?? "").includes("json")) {
      try {
        const v = JSON.parse(text);
        return v && typeof v === "object" ? (v as Record<string, string>) : {};
      } catch {
        return {};
      }
    }
    return Object.fromEntries(new URLSearchParams(text));
  }

  async function token(carrier: Exclude<FakeCarrier, "SHIP24">, req: Request): Promise<Response> {
    tokenRequests[carrier]++;
    const form = await readForm(req);
    let id = form.client_id;
    let secret = form.client_secret;
    if (carrier === "UPS") {
      // UPS takes the client id and secret as HTTP Basic only.
      const basic = /^Basic\s+(.+)$/i.exec(req.headers.get("authorization") ?? "");
      const [u, p] = basic?.[1] ? Buffer.from(basic[1], "base64").toString().split(":") : [];
      id = u;
      secret = p;
    }
    const want = FAKE_CREDENTIALS[carrier];
    const ok = id === want.id && secret === want.secret;
    if (form.grant_type !== "client_credentials") {
      if (carrier === "UPS") return json(upsError("10400", "Invalid/Missing grant_type"), 400);
      if (carrier === "FEDEX")
        return json(fedexError("BAD.REQUEST.ERROR", "The given grant_type is not supported."), 400);
      return json(
        {
          error: "unsupported_grant_type",
          error_description: "grant_type must be client_credentials",
        },
        400,
      );
    }
    if (!ok) {
      if (carrier === "UPS") return json(upsError("10401", "ClientId is Invalid"), 401);
      if (carrier === "FEDEX")
        return json(
          fedexError(
            "NOT.AUTHORIZED.ERROR",
            "The given client credentials were not valid. Please modify your request and try again.",
          ),
          401,
        );
      return json(
        { error: "invalid_client", error_description: "Client authentication failed" },
        401,
      );
    }
    const { token: t, ttl } = issue(carrier);
    const issuedAt = String(Date.now());
    if (carrier === "UPS")
      return json({
        token_type: "Bearer",
        issued_at: issuedAt,
        client_id: want.id,
        access_token: t,
        expires_in: String(ttl),
        status: "approved",
      });
    if (carrier === "FEDEX")
      return json({ access_token: t, token_type: "bearer", expires_in: ttl, scope: "CXS" });
    return json({
      access_token: t,
      token_type: "Bearer",
      issued_at: Number(issuedAt),
      expires_in: ttl,
      status: "approved",
      scope: "tracking",
      issuer: "api.usps.com",
      client_id: want.id,
      application_name: "Grapevine test",
    });
  }

  /** A cut-off body: the first part of a real answer. */
  const malformed = () =>
    new Response('{"output": {"completeTrackResults": [{"trackingNumber": "', {
      status: 200,
      headers: { "content-type": "application/json" },
    });
  const unexpected = () => json({ message: "Welcome to the API gateway", items: [] });

  async function track(
    carrier: FakeCarrier,
    req: Request,
    number: string | null,
  ): Promise<Response> {
    if (!number) {
      if (carrier === "UPS") return json(upsError("TV1002", "Invalid inquiry number"), 400);
      if (carrier === "FEDEX")
        return json(
          fedexError("TRACKING.TRACKINGNUMBER.EMPTY", "Please provide tracking number."),
          400,
        );
      if (carrier === "USPS")
        return json(uspsError(400, "Bad Request", "trackingNumber is required"), 400);
      return json(ship24Error("invalid_request", "trackingNumber is required"), 400);
    }
    if (carrier === "UPS" && (!req.headers.get("transId") || !req.headers.get("transactionSrc"))) {
      return json(upsError("10400", "Missing transId or transactionSrc header"), 400);
    }
    const spec = specFor(number);
    if (!bearerOk(req, carrier) || spec.scenario === "unauthorized") {
      if (carrier === "UPS")
        return json(upsError("250002", "Invalid Authentication Information."), 401);
      if (carrier === "FEDEX")
        return json(
          fedexError("NOT.AUTHORIZED.ERROR", "The token is either expired or invalid."),
          401,
        );
      if (carrier === "USPS")
        return json(uspsError(401, "Unauthorized", "Invalid or expired access token"), 401);
      return json(ship24Error("access_unauthorized", "Access unauthorized: invalid API key"), 401);
    }
    switch (spec.scenario) {
      case "rate-limited": {
        const h = { "retry-after": String(spec.retryAfterSeconds ?? 60) };
        if (carrier === "UPS") return json(upsError("429", "Rate limit exceeded"), 429, h);
        if (carrier === "FEDEX")
          return json(
            fedexError(
              "TOO.MANY.REQUESTS.ERROR",
              "We have received too many requests in a short duration.",
            ),
            429,
            h,
          );
        if (carrier === "USPS")
          return json(uspsError(429, "Too Many Requests", "Quota exceeded"), 429, h);
        return json(ship24Error("too_many_requests", "Too many requests"), 429, h);
      }
      case "server-error":
        if (carrier === "UPS") return json(upsError("10500", "General system failure"), 500);
        if (carrier === "FEDEX")
          return json(
            fedexError("INTERNAL.SERVER.ERROR", "We encountered an unexpected error."),
            500,
          );
        if (carrier === "USPS")
          return json(uspsError(500, "Internal Server Error", "Unexpected error"), 500);
        return json(ship24Error("internal_server_error", "Internal server error"), 500);
      case "malformed":
        return malformed();
      case "unexpected":
        return unexpected();
      case "not-found":
        if (carrier === "UPS")
          return json(upsError("TW0001", "Tracking Information Not Found"), 404);
        if (carrier === "FEDEX") {
          return json({
            transactionId: crypto.randomUUID(),
            output: {
              completeTrackResults: [
                {
                  trackingNumber: number,
                  trackResults: [
                    {
                      trackingNumberInfo: {
                        trackingNumber: number,
                        trackingNumberUniqueId: "",
                        carrierCode: "",
                      },
                      error: {
                        code: "TRACKING.TRACKINGNUMBER.NOTFOUND",
                        message:
                          "Tracking number cannot be found. Please correct the tracking number and try again.",
                      },
                    },
                  ],
                },
              ],
            },
          });
        }
        if (carrier === "USPS")
          return json(
            uspsError(
              404,
              "Not Found",
              "The Postal Service could not locate the tracking information for your request.",
            ),
            404,
          );
        return json(ship24Body(null, number));
      default: {
        // in-transit, delivered, slow (in transit, late)
        const s = story(
          number,
          spec.scenario === "slow" ? { ...spec, scenario: "in-transit" } : spec,
        );
        if (carrier === "UPS") return json(upsBody(s));
        if (carrier === "FEDEX") return json(fedexBody(s));
        if (carrier === "USPS") return json(uspsBody(s));
        return json(ship24Body(s, number));
      }
    }
  }

  async function route(req: Request, u: URL): Promise<Response> {
    const [, prefix, ...rest] = u.pathname.split("/");
    const carrier = PREFIX[prefix ?? ""];
    const path = `/${rest.join("/")}`;
    if (!carrier) return json({ error: "not found" }, 404);
    const post = req.method === "POST";
    const get = req.method === "GET";
    const tokenPath = {
      UPS: "/security/v1/oauth/token",
      FEDEX: "/oauth/token",
      USPS: "/oauth2/v3/token",
      SHIP24: null,
    }[carrier];
    if (carrier !== "SHIP24" && post && path === tokenPath) {
      await sleep(latencyMs, req.signal);
      const res = await token(carrier, req);
      log.push({ carrier, kind: "token", number: null, status: res.status });
      return res;
    }

    let number: string | null = null;
    let isTrack = false;
    if (carrier === "UPS" && get && path.startsWith("/api/track/v1/details/")) {
      isTrack = true;
      number = decodeURIComponent(path.slice("/api/track/v1/details/".length)) || null;
    } else if (carrier === "FEDEX" && post && path === "/track/v1/trackingnumbers") {
      isTrack = true;
      try {
        const body = (await req.json()) as {
          trackingInfo?: { trackingNumberInfo?: { trackingNumber?: string } }[];
        };
        number = body.trackingInfo?.[0]?.trackingNumberInfo?.trackingNumber ?? null;
      } catch {
        number = null;
      }
    } else if (carrier === "USPS" && get && path.startsWith("/tracking/v3/tracking/")) {
      isTrack = true;
      number = decodeURIComponent(path.slice("/tracking/v3/tracking/".length)) || null;
    } else if (carrier === "SHIP24" && post && path === "/public/v1/trackers/track") {
      isTrack = true;
      try {
        const body = (await req.json()) as { trackingNumber?: string };
        number = body.trackingNumber ?? null;
      } catch {
        number = null;
      }
    }
    if (!isTrack) return json({ error: `no route ${req.method} ${path}` }, 404);

    calls[carrier]++;
    inFlight[carrier]++;
    maxInFlight[carrier] = Math.max(maxInFlight[carrier], inFlight[carrier]);
    try {
      const spec = number ? specFor(number) : null;
      await sleep(spec?.scenario === "slow" ? slowMs : latencyMs, req.signal);
      const res = await track(carrier, req, number);
      log.push({ carrier, kind: "track", number, status: res.status });
      return res;
    } finally {
      inFlight[carrier]--;
    }
  }

  async function control(req: Request, u: URL): Promise<Response> {
    if (u.pathname === "/__fake/scenario" && req.method === "POST") {
      let body: Partial<ScenarioSpec> & { number?: unknown };
      try {
        body = (await req.json()) as typeof body;
      } catch {
        return json({ error: "body must be JSON" }, 400);
      }
      if (typeof body.number !== "string" || !SCENARIOS.includes(body.scenario as Scenario)) {
        return json(
          { error: `need {number, scenario} with scenario one of ${SCENARIOS.join(", ")}` },
          400,
        );
      }
      const { number, ...spec } = body;
      fake.set(number, spec as ScenarioSpec);
      return json({ ok: true });
    }
    if (u.pathname === "/__fake/reset" && req.method === "POST") {
      fake.reset();
      return json({ ok: true });
    }
    if (u.pathname === "/__fake/stats" && req.method === "GET") return json(fake.stats());
    return json({ error: "not found" }, 404);
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(req) {
      const u = new URL(req.url);
      if (u.pathname.startsWith("/__fake/")) return control(req, u);
      return route(req, u);
    },
  });

  const baseUrl = `http://127.0.0.1:${server.port}`;
  const fake: FakeCarriers = {
    baseUrl,
    env: {
      UPS_BASE_URL: `${baseUrl}/ups`,
      UPS_CLIENT_ID: FAKE_CREDENTIALS.UPS.id,
      UPS_CLIENT_SECRET: FAKE_CREDENTIALS.UPS.secret,
      FEDEX_BASE_URL: `${baseUrl}/fedex`,
      FEDEX_CLIENT_ID: FAKE_CREDENTIALS.FEDEX.id,
      FEDEX_CLIENT_SECRET: FAKE_CREDENTIALS.FEDEX.secret,
      USPS_BASE_URL: `${baseUrl}/usps`,
      USPS_CLIENT_ID: FAKE_CREDENTIALS.USPS.id,
      USPS_CLIENT_SECRET: FAKE_CREDENTIALS.USPS.secret,
      SHIP24_API_KEY: FAKE_CREDENTIALS.SHIP24.key,
      SHIP24_BASE_URL: `${baseUrl}/ship24`,
    },
    set(number, scenario) {
      const spec = typeof scenario === "string" ? { scenario } : scenario;
      if (!SCENARIOS.includes(spec.scenario)) throw new Error(`unknown scenario ${spec.scenario}`);
      scenarios.set(normaliseNumber(number), spec);
    },
    reset() {
      scenarios.clear();
      calls = zero();
      maxInFlight = zero();
      tokenRequests = zero();
      log = [];
    },
    stats: () => ({
      calls: { ...calls },
      maxInFlight: { ...maxInFlight },
      tokenRequests: { ...tokenRequests },
    }),
    requests: () => [...log],
    expireTokens() {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    setTokenTtl(seconds) {
      ttlOverride = seconds;
    },
    stop: () => server.stop(true),
  };
  return fake;
}
