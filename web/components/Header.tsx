import { useEffect, useRef } from "react";
import { Link, useLocation } from "wouter";
import { useT } from "../i18n/index.ts";
import { isAdmin, useAuth } from "../lib/auth.tsx";
import { initials } from "../lib/format.ts";
import { GrapeIcon } from "./GrapeIcon.tsx";
import { NotificationsBell } from "./notifications/NotificationsBell.tsx";

export function Header() {
  const { user, logout } = useAuth();
  const t = useT();
  const [location] = useLocation();
  const menu = useRef<HTMLDetailsElement>(null);
  const closeMenu = () => menu.current?.removeAttribute("open");

  // The menu closes on Escape and on a click anywhere outside it.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape" && menu.current?.open) {
        menu.current.removeAttribute("open");
        menu.current.querySelector("summary")?.focus();
      }
    };
    const onClick = (e: MouseEvent) => {
      if (menu.current?.open && !menu.current.contains(e.target as Node)) {
        menu.current.removeAttribute("open");
      }
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("click", onClick);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("click", onClick);
    };
  }, []);
  return (
    <header className="app-header">
      <nav className="container">
        <ul>
          {user && location !== "/" && (
            <li>
              <Link href="/" className="back-button" aria-label={t("nav.backToDashboard")}>
                <span aria-hidden="true">←</span>
              </Link>
            </li>
          )}
          <li>
            <Link href="/" className="brand">
              <GrapeIcon />
              <strong>Grapevine</strong>
            </Link>
          </li>
        </ul>
        <ul>
          {user && (
            <li>
              <NotificationsBell />
            </li>
          )}
          {user ? (
            <li>
              <details className="dropdown user-menu" ref={menu}>
                <summary aria-label={t("nav.userMenu")}>
                  <span className="avatar" aria-hidden="true">
                    {initials(user.displayname)}
                  </span>
                </summary>
                <ul dir="rtl">
                  <li className="user-menu-identity" dir="ltr">
                    <strong title={user.displayname}>{user.displayname}</strong>
                    <small title={user.email}>{user.email}</small>
                  </li>
                  <li dir="ltr">
                    <Link href="/vine" onClick={closeMenu}>
                      {t("nav.vine")}
                    </Link>
                  </li>
                  <li dir="ltr">
                    <Link href="/account" onClick={closeMenu}>
                      {t("nav.account")}
                    </Link>
                  </li>
                  {isAdmin(user) && (
                    <li dir="ltr">
                      <Link href="/admin/logs" onClick={closeMenu}>
                        {t("nav.adminLogs")}
                      </Link>
                    </li>
                  )}
                  <li dir="ltr">
                    <a
                      href="/login"
                      onClick={(e) => {
                        e.preventDefault();
                        closeMenu();
                        void logout();
                      }}
                    >
                      {t("nav.logout")}
                    </a>
                  </li>
                </ul>
              </details>
            </li>
          ) : (
            location !== "/login" && (
              <li>
                <Link href="/login">{t("nav.signIn")}</Link>
              </li>
            )
          )}
        </ul>
      </nav>
    </header>
  );
}
