import { useEffect, useLayoutEffect } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./App.tsx";
import { primeFirstScreen } from "./first-screen.ts";
import { catalogLoaded } from "./i18n/index.ts";
import { initialLanguage } from "./i18n/initial-language.ts";
import "./styles.css";

/**
 * What the first screen does not need, started once it is drawn (an effect runs after the first
 * commit): before, it would share a slow phone's link and CPU with the first render.
 */
function AfterFirstScreen({ root }: { root: HTMLElement }) {
  // The page the server drew (web/preload.ts), shown inert until now, has just been replaced by
  // the app's first render: the page answers to the reader from the same frame.
  useLayoutEffect(() => {
    root.inert = false;
  }, [root]);
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
  // The first screen in one render: the route's page module and, for a signed-in user, the data
  // its first render needs are awaited first (web/preload.ts started all of them before this
  // bundle arrived), so React renders the rows at once instead of a loading screen, then a
  // fallback, then a skeleton.
  void primeFirstScreen(location.pathname, location.search, initialLanguage()).finally(() => {
    createRoot(root).render(
      <>
        <App />
        <AfterFirstScreen root={root} />
      </>,
    );
  });
}
