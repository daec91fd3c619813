import { useT } from "../i18n/index.ts";

/** What a screen or card shows when its data could not be loaded: the reason and Try Again. */
export function LoadFailed(props: { message: string; onRetry: () => unknown }) {
  const t = useT();
  return (
    <article className="empty-state">
      <p>{props.message}</p>
      <button type="button" className="outline" onClick={() => void props.onRetry()}>
        {t("common.tryAgain")}
      </button>
    </article>
  );
}
