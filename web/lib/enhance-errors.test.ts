/** The enhancement dialog's error texts are exactly those of docs/messages.md. */
import { describe, expect, test } from "bun:test";
import {
  ENHANCE_MESSAGES,
  enhanceErrorMessage,
  isEmptyEnhancement,
  retryWaitSeconds,
} from "./enhance-errors.ts";

const body = (error: string) => JSON.stringify({ error });

describe("enhanceErrorMessage", () => {
  test("429 uses the Retry-After seconds, 60 without one", () => {
    expect(enhanceErrorMessage(429, body("slow down"), "17")).toBe(
      "Too many requests. Please wait 17 seconds and try again.",
    );
    expect(enhanceErrorMessage(429, "", null)).toBe(
      "Too many requests. Please wait 60 seconds and try again.",
    );
    expect(enhanceErrorMessage(429, "", "later")).toBe(
      "Too many requests. Please wait 60 seconds and try again.",
    );
  });

  test("400s by the phrase in the server's message", () => {
    expect(
      enhanceErrorMessage(400, body("Review text or subject is required for enhancement"), null),
    ).toBe("Please provide content to enhance and try again.");
    expect(
      enhanceErrorMessage(
        400,
        body("The review text is too long to enhance: at most 20,000"),
        null,
      ),
    ).toBe("Content is too long. Please shorten it and try again.");
    expect(
      enhanceErrorMessage(400, body("Invalid request type: use grammar or improve"), null),
    ).toBe("Enhancement type not supported. Please try again.");
    // A plain-text body works too.
    expect(enhanceErrorMessage(400, "text is too long", null)).toBe(ENHANCE_MESSAGES.tooLong);
    expect(enhanceErrorMessage(400, body("text must be text"), null)).toBe(
      "Invalid content. Please check your text and try again.",
    );
  });

  test("408, and every other status", () => {
    expect(enhanceErrorMessage(408, body("did not answer"), null)).toBe(
      "Enhancement is taking too long. Please try again.",
    );
    for (const s of [0, 403, 404, 500, 502, 503]) {
      // Even when the body happens to contain a 400 phrase.
      expect(enhanceErrorMessage(s, body("too long"), "5")).toBe(
        "Enhancement temporarily unavailable. Please try again.",
      );
    }
  });

  test("the fixed notices", () => {
    expect(ENHANCE_MESSAGES.empty).toBe("No enhanced content received.");
    expect(ENHANCE_MESSAGES.retryLimit).toBe(
      "You've reached the retry limit for this enhancement. Please try again later or check your content for any issues.",
    );
  });
});

describe("retryWaitSeconds", () => {
  test("seconds, an HTTP date, or 60", () => {
    expect(retryWaitSeconds("3600")).toBe(3600);
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(retryWaitSeconds("Wed, 01 Jan 2025 00:00:30 GMT", now)).toBe(30);
    expect(retryWaitSeconds(undefined)).toBe(60);
    expect(retryWaitSeconds(" ")).toBe(60);
  });
});

describe("isEmptyEnhancement", () => {
  test("nothing usable in either part", () => {
    expect(isEmptyEnhancement({ enhancedText: null, enhancedSubject: null })).toBe(true);
    expect(isEmptyEnhancement({ enhancedText: "  ", enhancedSubject: "" })).toBe(true);
    expect(isEmptyEnhancement({})).toBe(true);
    expect(isEmptyEnhancement(null)).toBe(true);
    expect(isEmptyEnhancement({ enhancedText: null, enhancedSubject: "S" })).toBe(false);
    expect(isEmptyEnhancement({ enhancedText: "T", enhancedSubject: null })).toBe(false);
  });
});
