import { useEffect } from "react";
import { createRoot } from "react-dom/client";
import type { UserData } from "../src/contract/index.ts";
import { DEFAULT_LANGUAGE } from "../src/i18n/languages.ts";
import { App, queryClient } from "./App.tsx";
import { catalogLoaded, currentLanguage, setLanguage } from "./i18n/index.ts";
import { initialLanguage } from "./i18n/initial-language.ts";
import { primeUser } from "./lib/auth.tsx";
import { userKeys } from "./lib/query-keys.ts";
import { PAGES } from "./pages.ts";
import { matchRoute } from "./routes.ts";
import "./styles.css";

/**
 * The first screen in one render: the route's page module and, for a signed-in user, the data its
 * first render needs are awaited first (web/preload.ts started all of them before this bundle
 * arrived), so React renders the rows at once instead of a loading screen, then a fallback, then
 * a skeleton. Nothing waits on time: a failed answer just leaves the page to fetch as usual.
 */
async function primeFirstScreen() {
  const match = matchRoute(location.pathname);
  const page = match ? PAGES[match.route.page] : null;
  const [signedIn, loaded] = await Promise.all([
    primeUser(queryClient),
    page?.load().catch(() => null),
    setLanguage(initialLanguage(), { firstOnly: true }).catch(() =>
      setLanguage(DEFAULT_LANGUAGE, { firstOnly: true }),
    ),
  ]);
  // The account's language wins over this browser's (it was chosen on another device).
  const account = queryClient.getQueryData<UserData>(userKeys.data())?.language;
  if (signedIn && account && account !== currentLanguage()) {
    await setLanguage(account, { firstOnly: true }).catch(() => {});
  }
  if (signedIn && match?.route.access === "signed-in") {
    await loaded?.prime?.(queryClient, location.search).catch(() => {});
  }
}

/**
 * What the first screen does not need, started once it is drawn (an effect runs after the first
 * commit): before, it would share a slow phone's link and CPU with the first render.
 */
function AfterFirstScreen() {
  useEffect(() => {
    // The rest of the catalog (other screens, error sentences).
    void catalogLoaded();
    // The service worker shows Web Push alerts and makes the app installable; it caches nothing.
    // (The page's load event, where it was registered, comes before the first render.)
    if ("serviceWorker" in navigator && window.isSecureContext) {
      navigator.serviceWorker.register("/sw.js").catch(() => {
        // no push on this browser; everything else works without it
      });
    }
  }, []);
  return null;
}

const root = document.getElementById("root");
if (root) {
  void primeFirstScreen().finally(() => {
    createRoot(root).render(
      <>
        <App />
        <AfterFirstScreen />
      </>,
    );
  });
}
