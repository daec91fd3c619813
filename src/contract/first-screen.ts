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

/**
 * What the server hands the web app's renderer (web/server-render.tsx, built into dist/render/)
 * for one first screen.
 */
export type FirstScreenRequest = {
  /** The address's path and query string (without "?"). */
  pathname: string;
  search: string;
  /** The session's token, sent with every request of the render. */
  token: string;
  /** The language the browser would start in (web/i18n/initial-language.ts). */
  language: Language;
  /** The browser's window size. */
  viewport: { width: number; height: number };
  /** Answers a request of the app (`/api/...`) in the server itself. */
  fetch(path: string, init: RequestInit): Promise<Response>;
};

/** The renderer module's export. */
export type FirstScreenRenderer = {
  /** The first screen's HTML (the inside of `#root`), or null when it is not drawn. */
  renderFirstScreen(request: FirstScreenRequest): Promise<string | null>;
};
