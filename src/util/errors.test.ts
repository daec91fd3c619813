/**
 * API error codes against the catalog (docs/api.md "Errors"): every code the server can answer
 * with has its English sentence in locales/en.json (`error.<code>`), and every sentence there is
 * still used. The type `ErrorCode` already makes tsc refuse an unknown code in a call; this scan
 * also covers the files tsc is not run on and keeps dead sentences out of six catalogs.
 */
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { MEDIA_MAX_FILES, MEDIA_MESSAGES, PRODUCT_IMAGE_MESSAGE } from "../contract/constants.ts";
import { says } from "../contract/errors.ts";
import {
  APP_PASSWORD_REFUSED,
  EXPIRED,
  NOT_CONNECTED,
} from "../features/mailbox/mailbox.status.ts";
import { NOT_CONFIGURED } from "../mail/oauth/google.ts";
import { AppError, badRequest, errorBody, errorSentence } from "./errors.ts";

const root = path.join(import.meta.dir, "..");
const english = JSON.parse(
  readFileSync(path.join(root, "..", "locales", "en.json"), "utf8"),
) as Record<string, string>;

/** Every .ts file of src/ but tests. */
function sources(dir = root): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith(".ts") && !e.name.endsWith(".test.ts") ? [p] : [];
  });
}

// The calls that take a code first: the AppError helpers, the answers of the middlewares, the
// schemas' messages, the throttle and password checks; and codes picked by a condition.
const CALL =
  /\b(?:badRequest|notFound|conflict|forbidden|errorBody|says)\(\s*"([^"]+)"|new AppError\(\s*[\w.]+,\s*"([^"]+)"|assertAllowed\([^,]+,\s*"([^"]+)"|checkPassword\([^;]*?,\s*"([^"]+)",?\s*\)/g;
const CHOICE = /\?\s*"([a-z][a-z0-9_]*)"\s*:\s*"([a-z][a-z0-9_]*)"/g;
const LABEL = /^error\.(field|status|marketplace)\./;

const files = sources().map((file) => ({ file, text: readFileSync(file, "utf8") }));
const thrown = new Map<string, string>();
for (const { file, text } of files) {
  for (const m of text.matchAll(CALL)) {
    const code = m.slice(1).find((g) => g !== undefined)!;
    thrown.set(code, path.relative(root, file));
  }
  for (const m of text.matchAll(CHOICE)) {
    if (!/AppError|badRequest|conflict|errorBody/.test(text.slice(m.index - 200, m.index + 200))) {
      continue;
    }
    thrown.set(m[1]!, path.relative(root, file));
    thrown.set(m[2]!, path.relative(root, file));
  }
}

describe("API error codes and the catalog", () => {
  test("the scan finds the codes (so the checks below check something)", () => {
    expect(thrown.size).toBeGreaterThan(150);
    expect(thrown.get("order_not_found")).toBeDefined();
    expect(thrown.get("token_invalid")).toBeUndefined(); // a constant: checked below by its value
  });

  test("every code thrown in src/ has an English sentence", () => {
    const missing = [...thrown].filter(([code]) => !(`error.${code}` in english));
    expect(missing).toEqual([]);
  });

  test("every English error sentence is still used by src/", () => {
    const all = files.map((f) => f.text).join("\n");
    const unused = Object.keys(english)
      .filter((id) => id.startsWith("error.") && !LABEL.test(id))
      .map((id) => id.slice("error.".length))
      .filter((code) => !all.includes(`"${code}"`));
    expect(unused).toEqual([]);
  });

  test("codes are stable names: snake_case, no spaces or capitals", () => {
    const bad = Object.keys(english)
      .filter((id) => id.startsWith("error.") && !LABEL.test(id))
      .filter((id) => !/^error\.[a-z][a-z0-9_]*$/.test(id));
    expect(bad).toEqual([]);
  });
});

describe("AppError", () => {
  test("its message is the code's English sentence with the values; the body carries both", () => {
    const err = new AppError(422, "tracking_number_unknown", { carrier: "UPS", number: "1Z9" });
    expect(err.message).toBe(
      "UPS does not know tracking number 1Z9 yet. It will be checked again at the next update.",
    );
    expect(err.body()).toEqual({
      error: err.message,
      code: "tracking_number_unknown",
      values: { carrier: "UPS", number: "1Z9" },
    });
  });

  test("a field, an order status and a marketplace are shown as words of the language", () => {
    expect(badRequest("field_required", { field: "productname" }).message).toBe(
      "Product name is required",
    );
    expect(errorSentence("de", "field_required", { field: "productname" })).toBe(
      "Produktname ist erforderlich",
    );
    expect(errorSentence("en", "mark_delivered_status", { status: "Review Approved" })).toBe(
      "This order is already Review Approved: only an order on its way can be marked delivered",
    );
    expect(errorSentence("ja", "mark_delivered_status", { status: "Review Approved" })).toContain(
      "レビュー承認済み",
    );
    expect(
      errorSentence("fr", "report_date_ambiguous", { date: "3/4/2026", row: 2, marketplace: "JP" }),
    ).toContain("(le Japon)");
  });

  test("plurals and numbers follow the language", () => {
    expect(errorSentence("en", "too_many_failed_sign_ins", { minutes: 1 })).toBe(
      "Too many failed sign-in attempts. Try again in 1 minute.",
    );
    expect(errorSentence("en", "too_many_failed_sign_ins", { minutes: 15 })).toBe(
      "Too many failed sign-in attempts. Try again in 15 minutes.",
    );
    expect(errorSentence("en", "enhance_text_too_long", { max: 20_000, length: 20_001 })).toBe(
      "The review text is too long to enhance: at most 20,000 characters (it has 20,001)",
    );
    expect(errorSentence("de", "enhance_text_too_long", { max: 20_000, length: 20_001 })).toBe(
      "Der Rezensionstext ist zu lang für die Verbesserung: höchstens 20.000 Zeichen (er hat 20.001)",
    );
  });

  test("a schema message carries its code and values to the answer", () => {
    expect(says("field_too_long", { field: "asin", max: 20 })).not.toContain("ASIN");
    expect(errorBody("token_required")).toEqual({
      error: "Access token required",
      code: "token_required",
      values: {},
    });
  });

  test("the English texts kept as constants for other uses are the catalog's sentences", () => {
    expect(errorSentence("en", "gmail_expired")).toBe(EXPIRED);
    expect(errorSentence("en", "mailbox_not_connected")).toBe(NOT_CONNECTED);
    expect(errorSentence("en", "app_password_refused")).toBe(APP_PASSWORD_REFUSED);
    expect(errorSentence("en", "gmail_oauth_not_configured")).toBe(NOT_CONFIGURED);
    expect(errorSentence("en", "product_image_host")).toBe(PRODUCT_IMAGE_MESSAGE);
    // The web app's own checks before an upload say what the server would.
    expect(errorSentence("en", "media_not_media")).toBe(MEDIA_MESSAGES.notMedia);
    expect(errorSentence("en", "media_unsupported")).toBe(MEDIA_MESSAGES.unsupported);
    expect(errorSentence("en", "media_too_many_files", { max: MEDIA_MAX_FILES })).toBe(
      MEDIA_MESSAGES.tooManyFiles,
    );
    expect(errorSentence("en", "media_video_exists")).toBe(MEDIA_MESSAGES.videoExists);
    expect(errorSentence("en", "media_too_many_videos")).toBe(MEDIA_MESSAGES.tooManyVideos);
    expect(errorSentence("en", "media_too_large", { mb: 100 })).toBe(
      MEDIA_MESSAGES.tooLarge(100 * 1024 * 1024),
    );
  });
});
