/**
 * 'Process Old Emails' (docs/screens.md, docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits): a collapsible section with the period selector. Open by
 * default while no email has been scanned; opens (highlighted) for 5 s after the monitored or
 * processed folder changes. After the server accepts, the user goes to / 2 s later.
 */
import { Trans } from "@lingui/react";
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import type { EmailSettings } from "../../../../src/contract/user.ts";
import { Dialog } from "../../../components/Dialog.tsx";
import { SelectField } from "../../../components/Field.tsx";
import { useProcessOldEmails } from "../../../hooks/useMailbox.ts";
import { translate, useT } from "../../../i18n/index.ts";
import { toast, toastError } from "../../../lib/toast.tsx";
import { DEFAULT_PERIOD, periodOptions, processConfirmText } from "./settings.ts";

export const FOLDER_CHANGE_OPEN_MS = 5000;
export const REDIRECT_AFTER_PROCESSING_MS = 2000;

export function ProcessOldEmails(props: { settings: EmailSettings; emailsScanned: number }) {
  const { settings, emailsScanned } = props;
  const t = useT();
  const [, navigate] = useLocation();
  const [days, setDays] = useState<number>(DEFAULT_PERIOD);
  const [confirming, setConfirming] = useState(false);
  const [userOpen, setUserOpen] = useState<boolean | null>(null);
  const [flash, setFlash] = useState(false);
  const process = useProcessOldEmails();
  const redirect = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Opens for 5 s after the monitored or processed folder changes (not on the first render).
  const folders = `${settings.selectedFolder ?? ""}\n${settings.processedFolder ?? ""}`;
  const previous = useRef(folders);
  useEffect(() => {
    if (previous.current === folders) return;
    previous.current = folders;
    setFlash(true);
    const t = setTimeout(() => setFlash(false), FOLDER_CHANGE_OPEN_MS);
    return () => clearTimeout(t);
  }, [folders]);

  useEffect(
    () => () => {
      if (redirect.current) clearTimeout(redirect.current);
    },
    [],
  );

  const open = flash || (userOpen ?? emailsScanned === 0);

  function start() {
    setConfirming(false);
    toast({
      title: translate("email.process.started"),
      description: translate("email.process.startedText"),
    });
    process.mutate(days, {
      onSuccess: () => {
        toast({
          title: translate("email.process.complete"),
          description: translate("email.process.completeText"),
          variant: "success",
        });
        redirect.current = setTimeout(() => navigate("/"), REDIRECT_AFTER_PROCESSING_MS);
      },
      onError: (err) =>
        toastError(err, translate("email.process.failed"), translate("email.process.failedText")),
    });
  }

  return (
    <article className={flash ? "process-old-emails highlight" : "process-old-emails"}>
      <details
        open={open}
        // Using the section while it is open for the folder change keeps it open.
        onFocusCapture={() => {
          if (!flash) return;
          setFlash(false);
          setUserOpen(true);
        }}
        onToggle={(e) => {
          const now = e.currentTarget.open;
          if (now === open) return; // our own change
          setFlash(false);
          setUserOpen(now);
        }}
      >
        <summary>{t("email.process.title")}</summary>
        <p>
          <Trans
            id="email.process.text"
            values={{ folder: settings.selectedFolder ?? "INBOX" }}
            components={{ 0: <strong /> }}
          />
        </p>
        <div className="process-row">
          <SelectField
            label={t("email.process.period")}
            name="period"
            value={String(days)}
            onValue={(v) => setDays(Number(v))}
            options={periodOptions()}
          />
          <button
            type="button"
            disabled={process.isPending}
            aria-busy={process.isPending || undefined}
            onClick={() => setConfirming(true)}
          >
            {t("email.process.title")}
          </button>
        </div>
      </details>
      <Dialog
        open={confirming}
        title={t("email.process.title")}
        onClose={() => setConfirming(false)}
      >
        <p>{processConfirmText(days)}</p>
        <p className="muted-note">{t("email.process.mayTakeAWhile")}</p>
        <footer className="button-row end">
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            {t("common.cancel")}
          </button>
          <button type="button" onClick={start}>
            {t("email.process.confirm")}
          </button>
        </footer>
      </Dialog>
    </article>
  );
}
