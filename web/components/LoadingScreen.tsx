import { GrapeIcon } from "./GrapeIcon.tsx";

export function LoadingScreen() {
  return (
    <main className="loading-screen" aria-busy="true" aria-label="Loading">
      <GrapeIcon size={48} />
      <p>Loading Grapevine…</p>
    </main>
  );
}
