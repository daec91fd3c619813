/**
 * The server's render of a signed-in first screen (README, "The first screen"): the
 * same App, primed with the same answers the browser would fetch, drawn to HTML with React DOM's
 * server renderer. The early script (web/preload.ts) shows it until the app's own first render
 * replaces it, so a slow phone shows its rows before React DOM has even arrived.
 *
 * Built by scripts/build-web.ts into dist/render/ (its own copy of the app's modules)
 * and loaded by the server on the first request for it (src/features/first-screen). Renders run
 * one at a time: the app's modules hold one user's answers and language while one is drawn.
 */
import { renderToStaticMarkup } from "react-dom/server";
import { Router } from "wouter";
import type { FirstScreenRenderer, FirstScreenRequest } from "../src/contract/first-screen.ts";
import type { UserData } from "../src/contract/index.ts";
import { App, queryClient } from "./App.tsx";
import { LOADING_SCREEN_CLASS } from "./components/LoadingScreen.tsx";
import { primeFirstScreen } from "./first-screen.ts";
import { catalogLoaded } from "./i18n/index.ts";
import { withHost } from "./lib/host.ts";
import { userKeys } from "./lib/query-keys.ts";
import { matchRoute } from "./routes.ts";

let queue: Promise<unknown> = Promise.resolve();

/** The first screen's HTML (the inside of `#root`), or null when it is not a signed-in page. */
export const renderFirstScreen: FirstScreenRenderer["renderFirstScreen"] = (request) => {
  const run = queue.then(() => render(request));
  queue = run.catch(() => {});
  return run;
};

async function render(request: FirstScreenRequest): Promise<string | null> {
  // Only the pages whose first render has its data (web/routes.ts), as the early script asks.
  if (!matchRoute(request.pathname)?.route.serverRendered) return null;
  // The cache starts empty (each render clears it when done) and holds this user's answers only.
  try {
    return await withHost(
      {
        token: () => request.token,
        fetch: request.fetch,
        viewport: () => request.viewport,
        // Never asked: only a user with a saved zone is drawn (below).
        timeZone: () => "UTC",
      },
      async () => {
        if (!(await primeFirstScreen(request.pathname, request.search, request.language))) {
          return null;
        }
        // Without a saved zone the dates are the browser's, which the server does not know (the
        // app saves it on the first visit).
        if (!queryClient.getQueryData<UserData>(userKeys.data())?.timezone) return null;
        // Every message of the language: a lazy part the server has loaded before draws too.
        await catalogLoaded();
        // Drawn as the browser's first render draws it: what is ready (the page, its primed data),
        // and the fallback of any part that would still load (a lazy card).
        const html = renderToStaticMarkup(
          <Router ssrPath={request.pathname} ssrSearch={request.search}>
            <App />
          </Router>,
        );
        // The page itself did not draw (it failed, or waits on something not primed): the
        // server's page would be only a loading screen, which the browser shows as fast itself.
        return html.includes(`class="${LOADING_SCREEN_CLASS}"`) ? null : html;
      },
    );
  } finally {
    queryClient.clear();
  }
}
