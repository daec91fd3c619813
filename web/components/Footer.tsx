import { Link } from "wouter";
import { useUserData } from "../hooks/useUser.ts";
import { useAuth } from "../lib/auth.tsx";

export const GOOGLE_PERMISSIONS_URL = "https://myaccount.google.com/permissions";

export function Footer() {
  const { user } = useAuth();
  const { data } = useUserData({ enabled: user !== null });
  const gmail = data?.emailSettings?.provider === "gmail";
  return (
    <footer className="app-footer">
      <div className="container">
        <p>
          Grapevine keeps track of your Amazon Vine orders, from ordering to an approved review. It
          runs on your own server.
        </p>
        <nav aria-label="Footer">
          <Link href="/privacy-policy">Privacy Policy</Link>
          {gmail && (
            <a href={GOOGLE_PERMISSIONS_URL} target="_blank" rel="noreferrer">
              Manage Permissions
            </a>
          )}
          {user && <Link href="/account">Account Settings</Link>}
        </nav>
        <small>
          © {new Date().getFullYear()} Grapevine. Self-hosted; your data stays on your server.
        </small>
      </div>
    </footer>
  );
}
