/**
 * The header's notifications bell (docs/screens.md): unread badge ('99+' above 99) that pulses for 6 s when
 * the unread count rises, and the popover, loaded on demand so DOMPurify stays out of the first load.
 */
import "../../styles/notifications.css";
import {
  type CSSProperties,
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useLayoutEffect,
  useRef,
  useState,
} from "react";
import { unreadCount, useNotifications } from "../../hooks/useNotifications.ts";
import { catalogLoaded, useT } from "../../i18n/index.ts";
import type { PopoverAnchor } from "./NotificationsPopover.tsx";

export const BADGE_MAX = 99;
export const PULSE_MS = 6000;

// The popover's words are in the later part of the catalog (src/i18n/catalog.ts).
const loadPopover = () =>
  Promise.all([import("./NotificationsPopover.tsx"), catalogLoaded()]).then(([m]) => m);
const NotificationsPopover = lazy(() =>
  loadPopover().then((m) => ({ default: m.NotificationsPopover })),
);

export const badgeText = (count: number) => (count > BADGE_MAX ? `${BADGE_MAX}+` : String(count));

/** Counts up each time `count` rises above what was last seen (not on the first load). */
function useRiseCounter(count: number, known: boolean): number {
  const previous = useRef<number | null>(null);
  const [rises, setRises] = useState(0);
  useEffect(() => {
    if (!known) return;
    if (previous.current !== null && count > previous.current) setRises((n) => n + 1);
    previous.current = count;
  }, [count, known]);
  return rises;
}

/** True for PULSE_MS after each rise. */
function usePulse(rises: number): boolean {
  const [pulsing, setPulsing] = useState(false);
  useEffect(() => {
    if (rises === 0) return;
    setPulsing(true);
    const t = setTimeout(() => setPulsing(false), PULSE_MS);
    return () => clearTimeout(t);
  }, [rises]);
  return pulsing;
}

function anchorOf(button: HTMLElement | null): PopoverAnchor {
  const rect = button?.getBoundingClientRect();
  if (!rect) return { top: 64, right: 8 };
  return { top: Math.round(rect.bottom + 8), right: Math.round(window.innerWidth - rect.right) };
}

export function NotificationsBell() {
  const t = useT();
  const { data } = useNotifications();
  const unread = unreadCount(data);
  const rises = useRiseCounter(unread, data !== undefined);
  const pulsing = usePulse(rises);
  const [anchor, setAnchor] = useState<PopoverAnchor | null>(null);
  const open = anchor !== null;
  const button = useRef<HTMLButtonElement>(null);
  const popover = useRef<HTMLDivElement>(null);
  const popoverId = useId();

  const close = useCallback((returnFocus = false) => {
    setAnchor(null);
    if (returnFocus) button.current?.focus();
  }, []);

  // Closes on Escape and on a press anywhere outside the bell and the popover (toasts excepted:
  // dismissing a failure toast should not close what the user is working in). Listening starts as
  // the popover opens (a layout effect: in place before the browser paints the popover, so an
  // Escape pressed at once is not missed).
  useLayoutEffect(() => {
    if (!open) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") close(true);
    };
    const onPointer = (e: PointerEvent) => {
      const target = e.target as Element | null;
      if (!target) return;
      if (button.current?.contains(target) || popover.current?.contains(target)) return;
      if (target.closest?.(".toaster")) return;
      close();
    };
    const onResize = () => setAnchor(anchorOf(button.current));
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPointer);
    window.addEventListener("resize", onResize);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPointer);
      window.removeEventListener("resize", onResize);
    };
  }, [open, close]);

  const label =
    unread > 0 ? t("nav.notificationsUnread", { count: unread }) : t("nav.notifications");
  return (
    <>
      <button
        ref={button}
        type="button"
        className="notif-bell"
        aria-label={label}
        title={t("nav.notifications")}
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? popoverId : undefined}
        onPointerEnter={() => void loadPopover()}
        onFocus={() => void loadPopover()}
        onClick={() => (open ? close() : setAnchor(anchorOf(button.current)))}
      >
        <svg
          className="notif-bell-icon"
          viewBox="0 0 24 24"
          width="22"
          height="22"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
          strokeLinejoin="round"
          aria-hidden="true"
        >
          <path d="M18 8A6 6 0 0 0 6 8c0 7-3 9-3 9h18s-3-2-3-9" />
          <path d="M13.73 21a2 2 0 0 1-3.46 0" />
        </svg>
        {unread > 0 && (
          <span
            key={rises}
            className={pulsing ? "notif-badge notif-badge-pulse" : "notif-badge"}
            aria-hidden="true"
          >
            {badgeText(unread)}
          </span>
        )}
      </button>
      {anchor && (
        <Suspense
          fallback={
            <div
              className="notif-popover notif-popover-loading"
              style={popoverPosition(anchor)}
              aria-busy="true"
            />
          }
        >
          <NotificationsPopover id={popoverId} anchor={anchor} rootRef={popover} onClose={close} />
        </Suspense>
      )}
    </>
  );
}

/** The loading placeholder's place under the bell (the popover computes the same). */
function popoverPosition(anchor: PopoverAnchor): CSSProperties {
  return {
    "--notif-top": `${anchor.top}px`,
    "--notif-right": `${Math.max(anchor.right, 8)}px`,
  } as CSSProperties;
}
