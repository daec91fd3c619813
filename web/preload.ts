/**
 * The first screen's head start, a tiny classic script that index.html loads
 * before the app's bundle. With a stored token it starts, at once and side by side, the user
 * check (`/api/user/data`), the first query of the route and the route's page chunk
 * (`<link rel="modulepreload">`), instead of one after the other once the bundle has run. The
 * app takes the answers with `takePreloaded` (web/lib/api.ts); anything it does not take is
 * simply not used, and without this script the app fetches as before. Without a token it starts
 * the sign-in page's chunk, where any signed-in screen sends the visitor. Routes, their pages and
 * their first requests come from the route table (web/routes.ts).
 */
import { FIRST_SCREEN_PATH } from "../src/contract/constants.ts";
import { INTL_LOCALES } from "../src/i18n/languages.ts";
import { linkManifest } from "../src/i18n/manifest.ts";
import { initialLanguage } from "./i18n/initial-language.ts";
import { matchRoute } from "./routes.ts";

/** Each page's chunk and the shared chunks it imports (set by scripts/build-web.ts). */
declare const __GV_PAGE_CHUNKS__: Record<string, string[]>;
/** Each language's message catalog chunk (set by scripts/build-web.ts). */
declare const __GV_CATALOG_CHUNKS__: Record<string, string>;

const token = (() => {
  try {
    return localStorage.getItem("auth-token");
  } catch {
    return null;
  }
})();

const modulePreload = (chunks: readonly string[] | undefined) => {
  for (const chunk of chunks ?? []) {
    const link = document.createElement("link");
    link.rel = "modulepreload";
    link.href = chunk;
    document.head.append(link);
  }
};

// The reader's language, as web/i18n/index.ts will choose it: its catalog loads with the bundle.
const language = initialLanguage();
const match = matchRoute(location.pathname);
/**
 * The page drawn by the server (showServerRender), if this address has one: asked for before
 * anything else, as it shows the rows before the bundle has arrived.
 */
const serverRender = token && match?.route.serverRendered ? showServerRender(token) : null;
document.documentElement.lang = language;
linkManifest(language);
const catalog = __GV_CATALOG_CHUNKS__[language];
if (catalog) modulePreload([catalog]);
const locale = INTL_LOCALES[language];

if (token) {
  const started: Record<string, Promise<Response>> = {};
  const get = (path: string) => {
    started[path] = fetch(path, {
      headers: { Authorization: `Bearer ${token}` },
      credentials: "include",
    });
  };
  get("/api/user/data");
  if (match) {
    for (const path of match.route.requests?.(match.params, location.search) ?? []) get(path);
    modulePreload(__GV_PAGE_CHUNKS__[match.route.page]);
  }
  (window as unknown as { __gvPreload?: { token: string; started: typeof started } }).__gvPreload =
    { token, started };
} else if (match?.route.access === "public") {
  modulePreload(__GV_PAGE_CHUNKS__[match.route.page]);
} else if (match) {
  // Signed out: every signed-in screen sends the visitor to the sign-in page, a lazy chunk.
  modulePreload(__GV_PAGE_CHUNKS__.LoginPage);
}

/**
 * Asks the server for the page it draws (GET /api/first-screen) and shows it, inert, in #root
 * until the app's own first render replaces it (web/main.tsx). An answer that comes after that
 * render, or none (204: the server does not draw this page), changes nothing.
 */
function showServerRender(token: string): Promise<void> {
  const query = new URLSearchParams({
    path: location.pathname,
    search: location.search.slice(1),
    language,
    width: String(window.innerWidth),
    height: String(window.innerHeight),
  });
  return fetch(`${FIRST_SCREEN_PATH}?${query}`, { headers: { Authorization: `Bearer ${token}` } })
    .then((res) => (res.status === 200 ? res.text() : null))
    .then((html) => {
      const root = document.getElementById("root");
      if (!html || !root || root.firstChild) return;
      root.inert = true;
      root.innerHTML = html;
    })
    .catch(() => {
      // Only a head start: the app draws the page itself.
    });
}

// The first date on a card loads ICU's locale and zone data (a few hundred ms on a slow phone),
// whichever formatter asks first. Asked here, it loads while the bundle is still downloading
// and the main thread has nothing else to do. The formatters are those of the first screen:
// web/lib/format.ts (dates, money), src/util/calendar-day.ts (days in a zone),
// src/util/plural.ts and the browser's zone (web/lib/timezone.ts). At once, not in a later task
// (the requests above are already out, and a task queued behind the stylesheet's parse and the
// first layout ran as the bundle arrived and held back its evaluation), except after the
// server's page is shown: that comes first. When the app has drawn its own page by then, its
// render has loaded them: nothing is left to warm.
if (token) {
  if (serverRender) {
    void serverRender.then(() => {
      const root = document.getElementById("root");
      if (!root?.firstChild || root.inert) warmIntl();
    });
  } else warmIntl();
}

function warmIntl() {
  try {
    const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const at = Date.now();
    new Intl.DateTimeFormat(locale, {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone,
    }).format(at);
    new Intl.DateTimeFormat(locale, {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: "UTC",
    }).format(at);
    new Intl.DateTimeFormat("en-CA", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      timeZone,
    }).formatToParts(at);
    new Intl.NumberFormat(locale, { style: "currency", currency: "USD" }).format(1);
    new Intl.PluralRules(locale).select(1);
  } catch {
    // Only a head start: the app formats without it.
  }
}
