import { useT } from "../i18n/index.ts";
import { GrapeIcon } from "./GrapeIcon.tsx";

export function LoadingScreen() {
  const t = useT();
  return (
    <main className="loading-screen" aria-busy="true" aria-label={t("app.loading")}>
      <GrapeIcon size={48} />
      <p>{t("app.loadingGrapevine")}</p>
    </main>
  );
}
