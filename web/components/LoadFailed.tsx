/** What a screen or card shows when its data could not be loaded: the reason and Try Again. */
export function LoadFailed(props: { message: string; onRetry: () => unknown }) {
  return (
    <article className="empty-state">
      <p>{props.message}</p>
      <button type="button" className="outline" onClick={() => void props.onRetry()}>
        Try Again
      </button>
    </article>
  );
}
