/**
 * 'Process Old Emails' (docs/screens.md, docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits): a collapsible section with the period selector. Open by
 * default while no email has been scanned; opens (highlighted) for 5 s after the monitored or
 * processed folder changes. After the server accepts, the user goes to / 2 s later.
 */
import { useEffect, useRef, useState } from "react";
import { useLocation } from "wouter";
import type { EmailSettings } from "../../../../src/contract/user.ts";
import { Dialog } from "../../../components/Dialog.tsx";
import { SelectField } from "../../../components/Field.tsx";
import { useProcessOldEmails } from "../../../hooks/useMailbox.ts";
import { toast, toastError } from "../../../lib/toast.tsx";
import { DEFAULT_PERIOD, PERIOD_OPTIONS, processConfirmText } from "./settings.ts";

export const FOLDER_CHANGE_OPEN_MS = 5000;
export const REDIRECT_AFTER_PROCESSING_MS = 2000;

export function ProcessOldEmails(props: { settings: EmailSettings; emailsScanned: number }) {
  const { settings, emailsScanned } = props;
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
      title: "Email Processing Started",
      description: "Starting to scan your emails for Amazon Vine orders. This may take a moment.",
    });
    process.mutate(days, {
      onSuccess: () => {
        toast({
          title: "Email Processing Complete",
          description:
            "Your older emails are being read in the background; new orders appear on your dashboard as they are found.",
          variant: "success",
        });
        redirect.current = setTimeout(() => navigate("/"), REDIRECT_AFTER_PROCESSING_MS);
      },
      onError: (err) =>
        toastError(err, "Processing Failed", "Failed to process emails. Please try again."),
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
        <summary>Process Old Emails</summary>
        <p>
          Grapevine reads new Amazon emails as they arrive. To find orders from before you
          connected, scan the older emails in your monitored folder (
          <strong>{settings.selectedFolder ?? "INBOX"}</strong>). Emails already read are skipped.
        </p>
        <div className="process-row">
          <SelectField
            label="Period"
            name="period"
            value={String(days)}
            onValue={(v) => setDays(Number(v))}
            options={PERIOD_OPTIONS}
          />
          <button
            type="button"
            disabled={process.isPending}
            aria-busy={process.isPending || undefined}
            onClick={() => setConfirming(true)}
          >
            Process Old Emails
          </button>
        </div>
      </details>
      <Dialog open={confirming} title="Process Old Emails" onClose={() => setConfirming(false)}>
        <p>{processConfirmText(days)}</p>
        <p className="muted-note">
          This may take a while when there are many emails. You can keep using Grapevine meanwhile.
        </p>
        <footer className="button-row end">
          <button type="button" className="secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
          <button type="button" onClick={start}>
            Process Emails
          </button>
        </footer>
      </Dialog>
    </article>
  );
}
