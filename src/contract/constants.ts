/**
 * Plain constants shared by server and browser. No zod here: web/ may import values from this
 * file (and types from the others) without pulling the validation library into the bundle.
 */
export const ORDER_STATUSES = [
  "Ordered",
  "Shipped",
  "Received",
  "Review Submitted",
  "Review Approved",
  "Review Rejected",
  "Canceled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const CARRIERS = [
  "UPS",
  "FEDEX",
  "USPS",
  "AMAZON",
  "OTHER",
  // Carriers of the other Vine marketplaces: tracking links only, no look-ups.
  "DHL",
  "HERMES",
  "EVRI",
  "DPD",
  "GLS",
  "ROYALMAIL",
  "LAPOSTE",
  "CHRONOPOST",
  "CORREOS",
  "SEUR",
  "SDA",
  "BRT",
  "POSTEITALIANE",
  "YAMATO",
  "SAGAWA",
  "JAPANPOST",
  "CANADAPOST",
  "PUROLATOR",
  "AUSPOST",
] as const;
export type Carrier = (typeof CARRIERS)[number];

/** How each carrier is named in the app (cards, selects, toasts): its code unless listed here. */
const CARRIER_NAMES: Partial<Record<Carrier, string>> = {
  FEDEX: "FedEx",
  AMAZON: "Amazon",
  OTHER: "Other",
  HERMES: "Hermes",
  EVRI: "Evri",
  ROYALMAIL: "Royal Mail",
  LAPOSTE: "La Poste / Colissimo",
  CHRONOPOST: "Chronopost",
  CORREOS: "Correos",
  POSTEITALIANE: "Poste Italiane",
  YAMATO: "Yamato",
  SAGAWA: "Sagawa",
  JAPANPOST: "Japan Post",
  CANADAPOST: "Canada Post",
  PUROLATOR: "Purolator",
  AUSPOST: "Australia Post",
};
export const CARRIER_LABELS = Object.fromEntries(
  CARRIERS.map((c) => [c, CARRIER_NAMES[c] ?? c]),
) as Record<Carrier, string>;

/** Sort choices of the orders list (docs/screens.md), as sent in ?sort=. */
export const ORDER_SORTS = [
  "newest",
  "oldest",
  "product-asc",
  "product-desc",
  "status-asc",
  "value-desc",
  "value-asc",
] as const;
export type OrderSort = (typeof ORDER_SORTS)[number];
export const ORDER_SORT_LABELS: Record<OrderSort, string> = {
  newest: "Newest First",
  oldest: "Oldest First",
  "product-asc": "Product A-Z",
  "product-desc": "Product Z-A",
  "status-asc": "Status A-Z",
  // The specification's names, and what they do with several currencies.
  "value-desc": "Highest Value (by currency)",
  "value-asc": "Lowest Value (by currency)",
};

export const ORDERS_MAX_LIMIT = 500;

export const DASHBOARD_RECENT_COUNT = 6;

export const NOTIFICATION_LEVELS = ["critical", "warning", "information", "other"] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export const EVENT_TABLES = ["order", "notification", "user", "IMAP", "MANUAL_RECONNECT"] as const;
export type EventTable = (typeof EVENT_TABLES)[number];
/** A comment line is sent this often so proxies and Bun keep the stream open. */
export const SSE_HEARTBEAT_MS = 25_000;

export const MAILBOX_STATES = [
  "idle",
  "connected",
  "polling",
  "disconnected",
  "connecting",
] as const;
export type MailboxState = (typeof MAILBOX_STATES)[number];
/** "Process Old Emails" periods in days (docs/behaviour.md#constants-and-limits); 30 is the default. */
export const OLD_EMAIL_PERIODS = [1, 7, 14, 30, 60, 90, 120, 150, 180] as const;
export const DEFAULT_OLD_EMAIL_PERIOD = 30;

/* ---- Carrier tracking (docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits) ---- */
/** Time zones offered on the Shipment Tracking tab, in the spec's order. */
export const TRACKING_TIMEZONES = [
  "America/New_York",
  "America/Chicago",
  "America/Denver",
  "America/Los_Angeles",
  "America/Phoenix",
  "America/Anchorage",
  "Pacific/Honolulu",
  "Europe/London",
  "Europe/Paris",
  "Europe/Berlin",
  "Asia/Tokyo",
  "Asia/Shanghai",
  "Australia/Sydney",
] as const;
/** Used when the browser's zone is not one of TRACKING_TIMEZONES. */
export const TRACKING_FALLBACK_TIMEZONE = "America/Chicago";
/** The daily check's local time when the user has not chosen one. */
export const DEFAULT_TRACKING_UPDATE_TIME = "09:00";
/** A daily update time: 24-hour "HH:MM" (docs/behaviour.md#validation). */
export const TRACKING_TIME_RE = /^([01]\d|2[0-3]):[0-5]\d$/;
/** The update-time choices: every 30 minutes across the day. */
export const TRACKING_TIME_STEP_MINUTES = 30;

/* ---- Reviews (docs/behaviour.md#data, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits) ---- */
export const AI_EDITING_OPTIONS = ["None", "Grammar & Spelling", "Improve Writing"] as const;
export type AiEditingOption = (typeof AI_EDITING_OPTIONS)[number];
export const TONES = [
  "humorous",
  "professional",
  "friendly",
  "concise",
  "encouraging",
  "formal",
] as const;
export type Tone = (typeof TONES)[number];
export type ToneAllocation = Record<Tone, number>;
export const REVIEW_WORDS_MIN = 50;
export const REVIEW_WORDS_MAX = 500;
export const REVIEW_WORDS_STEP = 5;
export const TONE_TOTAL = 100;
export type ReviewSettings = {
  targetWordCount: number;
  aiEditingOption: AiEditingOption;
  toneAllocation: ToneAllocation;
  autoGenerateSubject: boolean;
};
/**
 * Defaults (docs/behaviour.md#data). AI editing starts at None: nothing is sent to an AI server until the
 * reviewer chooses to.
 */
export const DEFAULT_REVIEW_SETTINGS: ReviewSettings = {
  targetWordCount: 150,
  aiEditingOption: "None",
  toneAllocation: {
    humorous: 100,
    professional: 0,
    friendly: 0,
    concise: 0,
    encouraging: 0,
    formal: 0,
  },
  autoGenerateSubject: false,
};
export const ENHANCE_REQUEST_TYPES = ["grammar", "improve"] as const;
export type EnhanceRequestType = (typeof ENHANCE_REQUEST_TYPES)[number];
/** AI enhancement: retries in the dialog, and the wait shown when a 429 has no Retry-After. */
export const ENHANCE_MAX_RETRIES = 3;
export const ENHANCE_DEFAULT_RETRY_SECONDS = 60;
export const REVIEW_SUBJECT_MAX = 500;

/* ---- Review media (docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits) ---- */
export const MEDIA_MAX_FILES = 10;
export const MEDIA_MAX_VIDEOS = 1;
export const IMAGE_MAX_BYTES = 10 * 1024 * 1024;
export const VIDEO_MAX_BYTES = 100 * 1024 * 1024;
export const MEDIA_IMAGE_TYPES = ["image/jpeg", "image/png", "image/gif", "image/webp"] as const;
export const MEDIA_VIDEO_TYPES = ["video/mp4"] as const;
/** The refusals of docs/behaviour.md#validation, word for word (the media area checks first; the server again). */
export const MEDIA_MESSAGES = {
  notMedia: "Only image and video files are allowed",
  unsupported: "Only JPEG, PNG, GIF, WebP images and MP4 videos are supported",
  tooManyFiles: `Upload limit reached: Maximum ${MEDIA_MAX_FILES} images allowed`,
  videoExists: "Only 1 video is allowed per review. Please remove the existing video first",
  tooManyVideos: "Too many videos",
  tooLarge: (maxBytes: number) => `File size must be less than ${maxBytes / (1024 * 1024)} MB`,
} as const;

/* ---- Product pictures (the pages' Content-Security-Policy allows only these) ---- */
/** Amazon's image hosts, as CSP host sources: the product pictures in Amazon's mail come from them. */
export const AMAZON_IMAGE_HOSTS = [
  "*.media-amazon.com",
  "*.images-amazon.com",
  "*.ssl-images-amazon.com",
] as const;
export const PRODUCT_IMAGE_MESSAGE =
  "Product image must be a picture address on Amazon's image servers, such as https://m.media-amazon.com/images/I/…";
/** True for an http(s) address on one of AMAZON_IMAGE_HOSTS (the only pictures a page may show). */
export function isAmazonImageUrl(v: string): boolean {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return false;
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") return false;
  const host = u.hostname.toLowerCase();
  return AMAZON_IMAGE_HOSTS.some((h) => host.endsWith(h.slice(1)));
}

/**
 * The server's render of a signed-in first screen (docs/api.md): the early script asks for it
 * with the address being opened and what the page's first render reads from the browser.
 */
export const FIRST_SCREEN_PATH = "/api/first-screen";
