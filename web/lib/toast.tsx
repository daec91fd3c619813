/**
 * Toasts (docs/behaviour.md#constants-and-limits): one visible at a time; a new toast replaces the current one. A toast closes by
 * itself after 5 s or with its close button, and a dismissed toast is removed after 1,000,000 ms.
 */
import { useEffect, useRef, useSyncExternalStore } from "react";
import { useT } from "../i18n/index.ts";
import { SignedOutError, serverFaultMessage } from "./api.ts";

export type ToastVariant = "default" | "success" | "destructive";
export type Toast = {
  id: number;
  title: string;
  description?: string;
  variant: ToastVariant;
  open: boolean;
};

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5_000;

let toasts: Toast[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => {
  for (const l of listeners) l();
};

export function dismissToast(id: number) {
  toasts = toasts.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  setTimeout(() => {
    toasts = toasts.filter((t) => t.id !== id);
    emit();
  }, TOAST_REMOVE_DELAY);
}

export function toast(input: { title: string; description?: string; variant?: ToastVariant }) {
  const id = nextId++;
  const next: Toast = { id, variant: "default", ...input, open: true };
  toasts = [next, ...toasts].slice(0, TOAST_LIMIT);
  emit();
  setTimeout(() => dismissToast(id), TOAST_DURATION);
  return id;
}

/**
 * A failure toast. Silent when the call failed because the session ended: the browser is already
 * on its way to /login and processing stops there (docs/messages.md).
 */
export function toastError(err: unknown, title: string, description?: string) {
  if (err instanceof SignedOutError) return;
  description = serverFaultMessage(err) ?? description;
  toast(
    description === undefined
      ? { title, variant: "destructive" }
      : { title, description, variant: "destructive" },
  );
}

function subscribe(l: () => void) {
  listeners.add(l);
  return () => listeners.delete(l);
}

export function useToasts() {
  return useSyncExternalStore(
    subscribe,
    () => toasts,
    () => toasts,
  );
}

export function Toaster() {
  const list = useToasts().filter((t) => t.open);
  const tr = useT();
  const ref = useRef<HTMLElement>(null);
  const newest = list[0]?.id;
  // A modal <dialog> sits in the browser's top layer, above any z-index. The toaster is a manual
  // popover, also in the top layer; showing it again after each new toast puts it above any
  // dialog opened since, so a toast raised from a dialog is never hidden behind it.
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.showPopover !== "function") return;
    if (el.matches(":popover-open")) el.hidePopover();
    if (newest !== undefined) el.showPopover();
  }, [newest]);
  return (
    <section
      ref={ref}
      popover="manual"
      className="toaster"
      aria-label={tr("app.toasts")}
      aria-live="polite"
    >
      {list.map((t) => (
        <div key={t.id} className={`toast toast-${t.variant}`} role="status">
          <div>
            <strong>{t.title}</strong>
            {t.description && <p>{t.description}</p>}
          </div>
          <button
            type="button"
            className="toast-close"
            aria-label={tr("common.close")}
            onClick={() => dismissToast(t.id)}
          >
            ×
          </button>
        </div>
      ))}
    </section>
  );
}
