/**
 * The notifications popover (docs/screens.md): tabs 'Unread (n)' and 'All (n)', empty states, per-item
 * 'Mark as read' and 'Delete notification', and 'Mark all as read' / 'Delete all notifications' /
 * 'Close' in its header. Messages are HTML built by the server; they are sanitised here (docs/behaviour.md#security)
 * to simple formatting and links. Loaded on demand by the bell: DOMPurify lives in this chunk.
 */
import DOMPurify from "dompurify";
import {
  type CSSProperties,
  type KeyboardEvent,
  type ReactNode,
  type RefObject,
  useEffect,
  useId,
  useLayoutEffect,
  useMemo,
  useState,
} from "react";
import { createPortal } from "react-dom";
import { useLocation } from "wouter";
import type { Notification } from "../../../src/contract/notifications.ts";
import {
  useDeleteAllNotifications,
  useDeleteNotification,
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
} from "../../hooks/useNotifications.ts";
import { useTimeZone } from "../../hooks/useTimeZone.ts";
import { type MessageId, useT } from "../../i18n/index.ts";
import { errorMessage } from "../../lib/api.ts";
import { formatDate, formatRelativeTime } from "../../lib/format.ts";
import { toastError } from "../../lib/toast.tsx";

/** Where the popover opens: below the bell, right-aligned with it (NotificationsBell measures). */
export type PopoverAnchor = { top: number; right: number };

// ---- Sanitising (a private DOMPurify instance, so its hook touches no one else's use) ----

const purify = DOMPurify(window);
const ALLOWED_TAGS = [
  "a",
  "b",
  "strong",
  "i",
  "em",
  "u",
  "s",
  "small",
  "mark",
  "code",
  "br",
  "p",
  "span",
  "ul",
  "ol",
  "li",
];

// Links stay only as same-site paths (followed in the app) or as http(s) links opened in a new tab.
purify.addHook("afterSanitizeAttributes", (node) => {
  if (!(node instanceof HTMLAnchorElement)) return;
  const href = node.getAttribute("href");
  node.removeAttribute("target");
  node.removeAttribute("rel");
  if (!href) return;
  let url: URL;
  try {
    url = new URL(href, window.location.origin);
  } catch {
    node.removeAttribute("href");
    return;
  }
  if (url.origin === window.location.origin) {
    node.setAttribute("href", `${url.pathname}${url.search}${url.hash}`);
  } else if (url.protocol === "https:" || url.protocol === "http:") {
    node.setAttribute("href", url.href);
    node.setAttribute("target", "_blank");
    node.setAttribute("rel", "noopener noreferrer");
  } else {
    node.removeAttribute("href");
  }
});

export function sanitizeNotificationHtml(html: string): string {
  return purify.sanitize(html, {
    ALLOWED_TAGS,
    ALLOWED_ATTR: ["href"],
    ALLOW_DATA_ATTR: false,
  });
}

// ---- Icons (Feather, MIT) ----

function Icon({ children, size = 18 }: { children: ReactNode; size?: number }) {
  return (
    <svg
      viewBox="0 0 24 24"
      width={size}
      height={size}
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      focusable="false"
    >
      {children}
    </svg>
  );
}

const ICONS = {
  critical: (
    <>
      <polygon points="7.86 2 16.14 2 22 7.86 22 16.14 16.14 22 7.86 22 2 16.14 2 7.86 7.86 2" />
      <line x1="12" y1="8" x2="12" y2="12" />
      <line x1="12" y1="16" x2="12.01" y2="16" />
    </>
  ),
  warning: (
    <>
      <path d="M10.29 3.86 1.82 18a2 2 0 0 0 1.71 3h16.94a2 2 0 0 0 1.71-3L13.71 3.86a2 2 0 0 0-3.42 0z" />
      <line x1="12" y1="9" x2="12" y2="13" />
      <line x1="12" y1="17" x2="12.01" y2="17" />
    </>
  ),
  information: (
    <>
      <circle cx="12" cy="12" r="10" />
      <line x1="12" y1="16" x2="12" y2="12" />
      <line x1="12" y1="8" x2="12.01" y2="8" />
    </>
  ),
  default: (
    <>
      <path d="M18 8A6 6 0 0 0 6 8c0 7-3 9-3 9h18s-3-2-3-9" />
      <path d="M13.73 21a2 2 0 0 1-3.46 0" />
    </>
  ),
  check: <polyline points="20 6 9 17 4 12" />,
  checkAll: (
    <>
      <path d="M18 6 7 17l-5-5" />
      <path d="m22 10-7.5 7.5L13 16" />
    </>
  ),
  trash: (
    <>
      <polyline points="3 6 5 6 21 6" />
      <path d="M19 6v14a2 2 0 0 1-2 2H7a2 2 0 0 1-2-2V6m3 0V4a2 2 0 0 1 2-2h4a2 2 0 0 1 2 2v2" />
    </>
  ),
  close: (
    <>
      <line x1="18" y1="6" x2="6" y2="18" />
      <line x1="6" y1="6" x2="18" y2="18" />
    </>
  ),
  inbox: (
    <>
      <polyline points="22 12 16 12 14 15 10 15 8 12 2 12" />
      <path d="M5.45 5.11 2 12v6a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2v-6l-3.45-6.89A2 2 0 0 0 16.76 4H7.24a2 2 0 0 0-1.79 1.11z" />
    </>
  ),
} as const;

type Level = "critical" | "warning" | "information" | "default";
const LEVEL_LABEL: Record<Level, MessageId> = {
  critical: "notifications.level.critical",
  warning: "notifications.level.warning",
  information: "notifications.level.information",
  default: "notifications.level.notice",
};
const levelOf = (n: Notification): Level =>
  n.level === "critical" || n.level === "warning" || n.level === "information"
    ? n.level
    : "default";

function IconButton({
  label,
  icon,
  onClick,
  disabled,
  className,
}: {
  label: string;
  icon: keyof typeof ICONS;
  onClick: () => void;
  disabled?: boolean;
  className?: string;
}) {
  return (
    <button
      type="button"
      className={className ? `notif-icon-button ${className}` : "notif-icon-button"}
      aria-label={label}
      title={label}
      onClick={onClick}
      disabled={disabled}
    >
      <Icon>{ICONS[icon]}</Icon>
    </button>
  );
}

// ---- The popover ----

/** Its place under the bell, as CSS variables (narrow screens use the full width, see the CSS). */
function positionStyle(anchor: PopoverAnchor): CSSProperties {
  return {
    "--notif-top": `${anchor.top}px`,
    "--notif-right": `${Math.max(anchor.right, 8)}px`,
  } as CSSProperties;
}

type Tab = "unread" | "all";

export function NotificationsPopover({
  id,
  anchor,
  rootRef,
  onClose,
}: {
  id: string;
  anchor: PopoverAnchor;
  rootRef: RefObject<HTMLDivElement | null>;
  onClose: (returnFocus?: boolean) => void;
}) {
  const t = useT();
  const { data, isPending, isError, refetch, isFetching } = useNotifications();
  const markRead = useMarkNotificationRead();
  const remove = useDeleteNotification();
  const markAll = useMarkAllNotificationsRead();
  const removeAll = useDeleteAllNotifications();
  const [, navigate] = useLocation();
  const timeZone = useTimeZone();
  const [tab, setTab] = useState<Tab>("unread");
  // "Delete all notifications" asks first: nothing is lost by a slip.
  const [confirmAll, setConfirmAll] = useState(false);
  const tabIds = { unread: useId(), all: useId() };
  const panelId = useId();
  const headingId = useId();

  const all = data ?? [];
  const unread = all.filter((n) => !n.isread);
  const shown = tab === "unread" ? unread : all;
  const now = useMemo(() => new Date(), []);

  // Focus moves into the popover as it opens (a layout effect: before the browser paints it), so
  // the keyboard reaches it right away.
  useLayoutEffect(() => {
    rootRef.current?.focus();
  }, [rootRef]);

  // A same-site link inside a message is followed by the client router, and the popover closes.
  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const onClick = (e: MouseEvent) => {
      const link = (e.target as Element | null)?.closest?.(".notif-message a[href]");
      if (!(link instanceof HTMLAnchorElement)) return;
      if (link.target === "_blank") return;
      if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey) return;
      const href = link.getAttribute("href") ?? "";
      if (!href.startsWith("/") || href.startsWith("//")) return;
      e.preventDefault();
      onClose();
      navigate(href);
    };
    root.addEventListener("click", onClick);
    return () => root.removeEventListener("click", onClick);
  }, [rootRef, navigate, onClose]);

  const fail = (title: string) => (err: unknown) =>
    toastError(err, title, errorMessage(err, t("notifications.pleaseTryAgain")));

  const onTabKey = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key !== "ArrowLeft" && e.key !== "ArrowRight" && e.key !== "Home" && e.key !== "End") {
      return;
    }
    e.preventDefault();
    const next: Tab =
      e.key === "Home" ? "unread" : e.key === "End" ? "all" : tab === "unread" ? "all" : "unread";
    setTab(next);
    document.getElementById(tabIds[next])?.focus();
  };

  let body: ReactNode;
  if (isPending) {
    body = (
      <p className="notif-state" aria-busy="true">
        {t("notifications.loading")}
      </p>
    );
  } else if (isError) {
    body = (
      <div className="notif-state" role="alert">
        <strong>{t("notifications.loadFailed")}</strong>
        <p>{t("notifications.checkConnection")}</p>
        <button
          type="button"
          className="secondary outline small"
          onClick={() => void refetch()}
          aria-busy={isFetching}
        >
          {t("notifications.tryAgain")}
        </button>
      </div>
    );
  } else if (shown.length === 0) {
    body =
      tab === "unread" ? (
        <div className="notif-state">
          <span className="notif-state-icon">
            <Icon size={28}>{ICONS.check}</Icon>
          </span>
          <strong>{t("notifications.caughtUp")}</strong>
          <p>{t("notifications.noUnread")}</p>
        </div>
      ) : (
        <div className="notif-state">
          <span className="notif-state-icon">
            <Icon size={28}>{ICONS.inbox}</Icon>
          </span>
          <strong>{t("notifications.none")}</strong>
        </div>
      );
  } else {
    body = (
      <ul className="notif-list">
        {shown.map((n) => (
          <NotificationItem
            key={n.notificationid}
            notification={n}
            now={now}
            timeZone={timeZone}
            onRead={() => {
              // In the Unread tab the item goes away with its buttons: keep focus in the popover.
              if (tab === "unread") rootRef.current?.focus();
              markRead.mutate(n.notificationid, {
                onError: fail(t("notifications.markReadFailed")),
              });
            }}
            onDelete={() => {
              rootRef.current?.focus();
              remove.mutate(n.notificationid, {
                onError: fail(t("notifications.deleteFailed")),
              });
            }}
          />
        ))}
      </ul>
    );
  }

  return createPortal(
    <div
      ref={rootRef}
      id={id}
      className="notif-popover"
      role="dialog"
      aria-labelledby={headingId}
      tabIndex={-1}
      style={positionStyle(anchor)}
    >
      <header className="notif-head">
        <h2 id={headingId}>{t("notifications.title")}</h2>
        <div className="notif-head-actions">
          {unread.length > 0 && (
            <IconButton
              label={t("notifications.markAllRead")}
              icon="checkAll"
              onClick={() =>
                markAll.mutate(undefined, {
                  onError: fail(t("notifications.markAllReadFailed")),
                })
              }
            />
          )}
          <IconButton
            label={t("notifications.deleteAll")}
            icon="trash"
            className="notif-danger"
            disabled={all.length === 0}
            onClick={() => setConfirmAll(true)}
          />
          <IconButton label={t("common.close")} icon="close" onClick={() => onClose(true)} />
        </div>
      </header>
      {confirmAll && all.length > 0 && (
        <fieldset className="notif-confirm" aria-labelledby={`${headingId}-confirm`}>
          <p id={`${headingId}-confirm`}>
            {t("notifications.confirmDeleteAll", { count: all.length })}
          </p>
          <div className="notif-confirm-actions">
            <button
              type="button"
              className="secondary outline small"
              autoFocus
              onClick={() => setConfirmAll(false)}
            >
              {t("notifications.keep")}
            </button>
            <button
              type="button"
              className="danger small"
              aria-busy={removeAll.isPending || undefined}
              disabled={removeAll.isPending}
              onClick={() =>
                removeAll.mutate(undefined, {
                  onError: fail(t("notifications.deleteAllFailed")),
                  onSettled: () => setConfirmAll(false),
                })
              }
            >
              {t("notifications.deleteAllConfirm")}
            </button>
          </div>
        </fieldset>
      )}
      <div className="notif-tabs" role="tablist" aria-label={t("notifications.show")}>
        {(["unread", "all"] as const).map((tabName) => (
          <button
            key={tabName}
            id={tabIds[tabName]}
            type="button"
            role="tab"
            className="notif-tab"
            aria-selected={tab === tabName}
            aria-controls={panelId}
            tabIndex={tab === tabName ? 0 : -1}
            onClick={() => setTab(tabName)}
            onKeyDown={onTabKey}
          >
            {tabName === "unread"
              ? t("notifications.tabUnread", { count: unread.length })
              : t("notifications.tabAll", { count: all.length })}
          </button>
        ))}
      </div>
      <div id={panelId} className="notif-panel" role="tabpanel" aria-labelledby={tabIds[tab]}>
        {body}
      </div>
    </div>,
    document.body,
  );
}

function NotificationItem({
  notification: n,
  now,
  timeZone,
  onRead,
  onDelete,
}: {
  notification: Notification;
  now: Date;
  timeZone: string;
  onRead: () => void;
  onDelete: () => void;
}) {
  const t = useT();
  const level = levelOf(n);
  const levelLabel = t(LEVEL_LABEL[level]);
  const html = useMemo(() => sanitizeNotificationHtml(n.message), [n.message]);
  return (
    <li className={`notif-item notif-level-${level}${n.isread ? "" : " notif-unread"}`}>
      <span className="notif-level-icon" title={levelLabel}>
        <Icon size={18}>{ICONS[level]}</Icon>
      </span>
      <div className="notif-body">
        <span className="notif-sr">
          {n.isread
            ? t("notifications.srRead", { level: levelLabel })
            : t("notifications.srUnread", { level: levelLabel })}
        </span>
        {/* Sanitised above: simple formatting and safe links only. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with DOMPurify */}
        <div className="notif-message" dangerouslySetInnerHTML={{ __html: html }} />
        <time dateTime={n.createdate} title={formatDate(n.createdate, timeZone)}>
          {formatRelativeTime(n.createdate, now, timeZone)}
        </time>
      </div>
      <div className="notif-item-actions">
        {!n.isread && (
          <IconButton label={t("notifications.markRead")} icon="check" onClick={onRead} />
        )}
        <IconButton label={t("notifications.delete")} icon="trash" onClick={onDelete} />
      </div>
    </li>
  );
}
