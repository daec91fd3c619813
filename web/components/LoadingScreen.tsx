import { useT } from "../i18n/index.ts";
import { GrapeIcon } from "./GrapeIcon.tsx";

/** The class of the loading screen, which shows where a page is not drawn yet. */
export const LOADING_SCREEN_CLASS = "loading-screen";

export function LoadingScreen() {
  const t = useT();
  return (
    <main className={LOADING_SCREEN_CLASS} aria-busy="true" aria-label={t("app.loading")}>
      <GrapeIcon size={48} />
      <p>{t("app.loadingGrapevine")}</p>
    </main>
  );
}
