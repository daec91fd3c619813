/**
 * Email folder settings (docs/screens.md, docs/behaviour.md#validation, docs/behaviour.md#constants-and-limits), shown only while connected: the monitored folder, the
 * processed-emails folder ('Leave in original folder' is '__none__', sent as absent), mark as
 * read, refresh the list, Reset / Save (enabled only when something differs from the saved values).
 */
import { useEffect, useRef, useState } from "react";
import type { EmailSettings } from "../../../../src/contract/user.ts";
import { Check, SelectField } from "../../../components/Field.tsx";
import { useMailFolders, useRefreshFolders, useSaveFolders } from "../../../hooks/useMailbox.ts";
import { translate, useT } from "../../../i18n/index.ts";
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
  const t = useT();
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
          title: translate("email.folders.saved"),
          description: translate("email.folders.savedText"),
          variant: "success",
        });
      },
      onError: (err) =>
        toastError(
          err,
          translate("email.folders.saveFailed"),
          translate("email.folders.saveFailedText"),
        ),
    });
  }

  function onRefresh() {
    refresh.mutate(undefined, {
      onSuccess: () =>
        toast({
          title: translate("email.folders.refreshed"),
          description: translate("email.folders.refreshedText"),
          variant: "success",
        }),
      onError: (err) =>
        toastError(
          err,
          translate("email.folders.refreshFailed"),
          translate("email.folders.refreshFailedText"),
        ),
    });
  }

  return (
    <article className="folder-settings" aria-labelledby="folder-settings-title">
      <header>
        <h2 id="folder-settings-title">{t("email.folders.title")}</h2>
        <p>{t("email.folders.text")}</p>
      </header>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (dirty && !busy) onSave();
        }}
      >
        <div className="grid">
          <SelectField
            label={t("email.folders.monitor")}
            hint={t("email.folders.monitorHint")}
            name="selectedFolder"
            value={form.selectedFolder}
            aria-busy={folders.isLoading || undefined}
            onValue={(folder) => update(withMonitoredFolder(form, folder))}
            options={monitorOptions}
          />
          <SelectField
            label={t("email.folders.moveTo")}
            hint={t("email.folders.moveToHint")}
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
          label={t("email.folders.markRead")}
        />
        {folders.isError && <p className="mailbox-error">{t("email.folders.listFailed")}</p>}
        <div className="button-row folder-actions">
          <button
            type="button"
            className="secondary outline"
            disabled={refresh.isPending}
            aria-busy={refresh.isPending || undefined}
            onClick={onRefresh}
          >
            {t("email.folders.refresh")}
          </button>
          <span className="spacer" />
          <button
            type="button"
            className="secondary"
            disabled={!dirty || busy}
            onClick={() => setDraft(null)}
          >
            {t("email.folders.reset")}
          </button>
          <button type="submit" disabled={!dirty || busy} aria-busy={busy || undefined}>
            {busy ? t("email.folders.saving") : t("email.folders.save")}
          </button>
        </div>
      </form>
    </article>
  );
}
