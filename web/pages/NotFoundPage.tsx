import { Link } from "wouter";
import { useAuth } from "../lib/auth.tsx";

export function NotFoundPage() {
  const { user } = useAuth();
  return (
    <main className="container narrow">
      <article className="not-found">
        <h1>404 Page Not Found</h1>
        <p>There is nothing at this address. It may have moved, or the link may be mistyped.</p>
        <Link href={user ? "/" : "/login"} role="button">
          {user ? "Back to Dashboard" : "Go to sign in"}
        </Link>
      </article>
    </main>
  );
}
