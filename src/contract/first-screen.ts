/**
 * GET /api/first-screen (docs/api.md): the address being opened and what the page's first render
 * reads from the browser. The early script (web/preload.ts) sends it; anything else gets a 400.
 */
import { z } from "zod";
import { isLanguage, type Language } from "../i18n/languages.ts";

/** Longer than any address of the app; a longer one is not ours. */
export const FIRST_SCREEN_ADDRESS_MAX = 2000;

const pixels = z.coerce.number().int().min(1).max(100_000);

export const firstScreenQuery = z.object({
  /** The address's path: "/orders". */
  path: z
    .string()
    .max(FIRST_SCREEN_ADDRESS_MAX)
    .regex(/^\/[^?#]*$/),
  /** Its query string without "?": "status=all". */
  search: z.string().max(FIRST_SCREEN_ADDRESS_MAX).default(""),
  /** The language the browser starts in (the account's wins, as in the browser). */
  language: z
    .string()
    .refine(isLanguage)
    .transform((v) => v as Language),
  /** The window's size in CSS pixels. */
  width: pixels,
  height: pixels,
});
export type FirstScreenQuery = z.output<typeof firstScreenQuery>;
