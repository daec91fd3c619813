import { Link } from "wouter";
import { useUserData } from "../hooks/useUser.ts";
import { useAuth } from "../lib/auth.tsx";

export function DashboardPage() {
  const { user } = useAuth();
  const { data } = useUserData();
  return (
    <main className="container">
      <hgroup>
        <h1>Dashboard</h1>
        <p>Welcome, {data?.displayname ?? user?.displayname}.</p>
      </hgroup>
      <article className="empty-state">
        <h2>No orders found</h2>
        <p>
          Your Vine orders will be listed here. Meanwhile you can set up your profile in{" "}
          <Link href="/account">Account Settings</Link> or read how Grapevine handles your data in
          the <Link href="/privacy-policy">Privacy Policy</Link>.
        </p>
      </article>
    </main>
  );
}
