/**
 * The first screen's data, fetched before its first render: the user, the language's first
 * catalog part and the route's page module with the data its first render needs (its `prime`).
 * The browser (web/main.tsx) and the server's render of a first screen (web/server-render.tsx)
 * both start here, so both draw the same page.
 */
import type { UserData } from "../src/contract/index.ts";
import { DEFAULT_LANGUAGE, type Language } from "../src/i18n/languages.ts";
import { queryClient } from "./App.tsx";
import { currentLanguage, setLanguage } from "./i18n/index.ts";
import { primeUser } from "./lib/auth.tsx";
import { userKeys } from "./lib/query-keys.ts";
import { PAGES } from "./pages.ts";
import { matchRoute } from "./routes.ts";

/**
 * Awaits what the first render of `pathname` needs. Nothing waits on time: a failed answer just
 * leaves the page to fetch as usual. Resolves to whether a signed-in page was primed.
 */
export async function primeFirstScreen(
  pathname: string,
  search: string,
  language: Language,
): Promise<boolean> {
  const match = matchRoute(pathname);
  const page = match ? PAGES[match.route.page] : null;
  const [signedIn, loaded] = await Promise.all([
    primeUser(queryClient),
    page?.load().catch(() => null),
    setLanguage(language, { firstOnly: true }).catch(() =>
      setLanguage(DEFAULT_LANGUAGE, { firstOnly: true }),
    ),
  ]);
  // The account's language wins over this browser's (it was chosen on another device).
  const account = queryClient.getQueryData<UserData>(userKeys.data())?.language;
  if (signedIn && account && account !== currentLanguage()) {
    await setLanguage(account, { firstOnly: true }).catch(() => {});
  }
  if (!signedIn || match?.route.access !== "signed-in") return false;
  await loaded?.prime?.(queryClient, search).catch(() => {});
  return true;
}
