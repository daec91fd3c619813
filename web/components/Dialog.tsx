/** A modal dialog on the native <dialog> element: focus stays inside, Escape closes it. */
import { type ReactNode, useEffect, useRef } from "react";
import { useT } from "../i18n/index.ts";

export function Dialog(props: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  className?: string;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const t = useT();
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    if (props.open && !el.open) el.showModal();
    if (!props.open && el.open) el.close();
  }, [props.open]);
  return (
    <dialog
      ref={ref}
      className={props.className}
      aria-label={props.title}
      onCancel={(e) => {
        e.preventDefault();
        props.onClose();
      }}
    >
      {props.open && (
        <article>
          <header>
            <button
              type="button"
              aria-label={t("common.close")}
              className="close"
              onClick={props.onClose}
            />
            <h3>{props.title}</h3>
          </header>
          {props.children}
          {props.footer && <footer>{props.footer}</footer>}
        </article>
      )}
    </dialog>
  );
}

/** Yes/no confirmation. */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  message: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const t = useT();
  return (
    <Dialog
      open={props.open}
      title={props.title}
      onClose={props.onCancel}
      footer={
        <>
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t("common.cancel")}
          </button>
          <button
            type="button"
            className="danger"
            aria-busy={props.busy || undefined}
            disabled={props.busy}
            onClick={props.onConfirm}
          >
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <p>{props.message}</p>
    </Dialog>
  );
}
