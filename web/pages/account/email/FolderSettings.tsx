/**
 * Email folder settings (docs/screens.md, docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits), shown only while connected: the monitored folder, the
 * processed-emails folder ('Leave in original folder' is '__none__', sent as absent), mark as
 * read, refresh the list, Reset / Save (enabled only when something differs from the saved values).
 */
import { useEffect, useRef, useState } from "react";
import type { EmailSettings } from "../../../../src/contract/user.ts";
import { Check, SelectField } from "../../../components/Field.tsx";
import { useMailFolders, useRefreshFolders, useSaveFolders } from "../../../hooks/useMailbox.ts";
import { toast, toastError } from "../../../lib/toast.tsx";
import {
  type FolderForm,
  folderFormDirty,
  folderOptions,
  folderSelectPayload,
  processedFolderOptions,
  savedFolderForm,
  shouldAutoRefreshFolders,
  withMonitoredFolder,
} from "./settings.ts";

export function FolderSettings({ settings }: { settings: EmailSettings }) {
  const folders = useMailFolders(true);
  const refresh = useRefreshFolders();
  const save = useSaveFolders();
  const saved = savedFolderForm(settings);
  const [draft, setDraft] = useState<FolderForm | null>(null);
  const form = draft ?? saved;
  const dirty = folderFormDirty(form, saved);
  const busy = save.isPending;

  // docs/behaviour.md#constants-and-limits: refresh by itself once when connected, the list is empty and the last refresh is old.
  const autoRefreshed = useRef(false);
  const list = folders.data;
  useEffect(() => {
    if (autoRefreshed.current || !list || refresh.isPending) return;
    if (
      shouldAutoRefreshFolders({
        connected: settings.isConnected,
        folderCount: list.length,
        lastFolderRefresh: settings.lastFolderRefresh,
      })
    ) {
      autoRefreshed.current = true;
      refresh.mutate(undefined, {
        onError: (err) => console.warn("mailbox: automatic folder refresh failed", err),
      });
    }
  }, [list, settings.isConnected, settings.lastFolderRefresh, refresh]);

  const keep = [
    saved.selectedFolder,
    saved.processedFolder,
    form.selectedFolder,
    form.processedFolder,
  ];
  const monitorOptions = folderOptions(list, keep);
  const processedOptions = processedFolderOptions(list, form.selectedFolder, keep);

  function update(next: FolderForm) {
    setDraft(folderFormDirty(next, saved) ? next : null);
  }

  function onSave() {
    save.mutate(folderSelectPayload(form), {
      onSuccess: () => {
        setDraft(null);
        toast({
          title: "Folder Settings Saved",
          description: "Your folder preferences have been saved successfully.",
          variant: "success",
        });
      },
      onError: (err) =>
        toastError(err, "Save Failed", "Failed to save folder settings. Please try again."),
    });
  }

  function onRefresh() {
    refresh.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: "Folders Refreshed",
          description: "Your email folders have been updated successfully.",
          variant: "success",
        }),
      onError: (err) =>
        toastError(err, "Refresh Failed", "Failed to refresh folders. Please try again."),
    });
  }

  return (
    <article className="folder-settings" aria-labelledby="folder-settings-title">
      <header>
        <h2 id="folder-settings-title">Email Folder Settings</h2>
        <p>
          Choose where Grapevine looks for Amazon's emails and what it does with them once their
          orders are saved.
        </p>
      </header>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty && !busy) onSave();
        }}
      >
        <div className="grid">
          <SelectField
            label="Monitor folder"
            hint="Only Amazon's emails in this folder are read."
            name="selectedFolder"
            value={form.selectedFolder}
            aria-busy={folders.isLoading || undefined}
            onValue={(folder) => update(withMonitoredFolder(form, folder))}
            options={monitorOptions}
          />
          <SelectField
            label="Move processed emails to"
            hint="Optional: a folder to move each email to after its order is saved."
            name="processedFolder"
            value={form.processedFolder}
            onValue={(processedFolder) => update({ ...form, processedFolder })}
            options={processedOptions}
          />
        </div>
        <Check
          labelClassName="checkbox-line"
          name="markProcessedAsRead"
          checked={form.markProcessedAsRead}
          onChecked={(on) => update({ ...form, markProcessedAsRead: on })}
          label="Mark processed emails as read"
        />
        {folders.isError && (
          <p className="mailbox-error">
            The folder list could not be loaded. Use 'Refresh folder list' to try again.
          </p>
        )}
        <div className="button-row folder-actions">
          <button
            type="button"
            className="secondary outline"
            disabled={refresh.isPending}
            aria-busy={refresh.isPending || undefined}
            onClick={onRefresh}
          >
            Refresh folder list
          </button>
          <span className="spacer" />
          <button
            type="button"
            className="secondary"
            disabled={!dirty || busy}
            onClick={() => setDraft(null)}
          >
            Reset Settings
          </button>
          <button type="submit" disabled={!dirty || busy} aria-busy={busy || undefined}>
            {busy ? "Saving..." : "Save Settings"}
          </button>
        </div>
      </form>
    </article>
  );
}
