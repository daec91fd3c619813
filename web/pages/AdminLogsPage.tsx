/** Admin log files (docs/screens.md): list, view (tail, search, refresh, auto-scroll), download, delete. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { ConfirmDialog } from "../components/Dialog.tsx";
import { Check } from "../components/Field.tsx";
import { useLogFile, useLogFiles } from "../hooks/useAdminLogs.ts";
import { useTimeZone } from "../hooks/useTimeZone.ts";
import { useT } from "../i18n/index.ts";
import { ApiError, apiRequest, downloadFile, errorMessage } from "../lib/api.ts";
import { isAdmin, useAuth } from "../lib/auth.tsx";
import { formatBytes, formatDate } from "../lib/format.ts";
import { adminLogKeys } from "../lib/query-keys.ts";
import { toast, toastError } from "../lib/toast.tsx";

export function AdminLogsPage() {
  // Only the administrator may read them (the API answers 403): anyone else is told so, with no
  // Try Again that could never work.
  const t = useT();
  const admin = isAdmin(useAuth().user);
  const { data, isLoading, isError, refetch, error } = useLogFiles({ enabled: admin });
  const forbidden = !admin || (error instanceof ApiError && error.status === 403);
  const queryClient = useQueryClient();
  const timeZone = useTimeZone();
  const [viewing, setViewing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  useEffect(() => {
    if (isError && !forbidden) toastError(error, t("admin.loadFailed"));
  }, [isError, error, forbidden, t]);

  const remove = useMutation({
    mutationFn: (name: string) =>
      apiRequest("DELETE", `/api/admin/logs/${encodeURIComponent(name)}`),
    onSuccess: () => {
      toast({ title: t("admin.deleted"), variant: "success" });
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: adminLogKeys.all() });
    },
    onError: (err) => {
      toastError(err, t("admin.deleteFailed"));
      setDeleting(null);
    },
  });

  async function download(name: string) {
    try {
      toast({ title: t("admin.downloadStarted") });
      await downloadFile(`/api/admin/logs/${encodeURIComponent(name)}/download`, name);
    } catch (err) {
      toastError(err, t("admin.downloadFailed"));
    }
  }

  return (
    <main className="container">
      <hgroup>
        <h1>{t("admin.title")}</h1>
        <p>{t("admin.intro")}</p>
      </hgroup>
      {forbidden ? (
        <article className="empty-state">
          <h2>{t("admin.forbidden.title")}</h2>
          <p>{t("admin.forbidden.text")}</p>
          <Link href="/" className="button-link">
            {t("nav.backToDashboard")}
          </Link>
        </article>
      ) : isLoading ? (
        <article aria-busy="true">{t("admin.loading")}</article>
      ) : isError ? (
        <article className="empty-state">
          <h2>{t("admin.error.title")}</h2>
          <p>{errorMessage(error, t("admin.error.text"))}</p>
          <button type="button" onClick={() => void refetch()}>
            {t("common.tryAgain")}
          </button>
        </article>
      ) : !data?.files.length ? (
        <article className="empty-state">
          <h2>{t("admin.empty.title")}</h2>
          <p>{t("admin.empty.text")}</p>
        </article>
      ) : (
        <div className="table-scroll">
          <table className="striped log-table">
            <thead>
              <tr>
                <th scope="col">{t("admin.name")}</th>
                <th scope="col">{t("admin.size")}</th>
                <th scope="col">{t("admin.modified")}</th>
                <th scope="col">{t("admin.actions")}</th>
              </tr>
            </thead>
            <tbody>
              {data.files.map((f) => (
                <tr key={f.name}>
                  <td>
                    <code>{f.name}</code>
                  </td>
                  <td data-label={t("admin.size")}>{formatBytes(f.size)}</td>
                  <td data-label={t("admin.modified")}>{formatDate(f.modified, timeZone)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="outline small"
                      onClick={() => setViewing(f.name)}
                    >
                      {t("admin.view")}
                    </button>
                    <button
                      type="button"
                      className="outline small"
                      onClick={() => void download(f.name)}
                    >
                      {t("admin.download")}
                    </button>
                    <button
                      type="button"
                      className="outline small danger"
                      onClick={() => setDeleting(f.name)}
                    >
                      {t("common.delete")}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deleting !== null}
        title={t("admin.confirmDelete.title")}
        message={t("admin.confirmDelete.text")}
        confirmLabel={t("common.delete")}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
      {viewing && <LogViewer name={viewing} onClose={() => setViewing(null)} />}
    </main>
  );
}

function LogViewer({ name, onClose }: { name: string; onClose: () => void }) {
  const t = useT();
  const { data, isFetching, isError, error, refetch } = useLogFile(name);
  const [search, setSearch] = useState("");
  const [autoScroll, setAutoScroll] = useState(true);
  const scroller = useRef<HTMLPreElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    if (isError) toastError(error, t("admin.viewer.loadFailed"));
  }, [isError, error, t]);

  const lines = useMemo(() => {
    const all = (data?.content ?? "").split("\n");
    if (all.at(-1) === "") all.pop();
    if (!search.trim()) return all;
    const needle = search.toLowerCase();
    return all.filter((l) => l.toLowerCase().includes(needle));
  }, [data, search]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll again whenever the lines change
  useEffect(() => {
    if (autoScroll && scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  }, [lines, autoScroll]);

  const scrollToBottom = () => {
    if (scroller.current) scroller.current.scrollTop = scroller.current.scrollHeight;
  };

  return (
    <dialog
      ref={dialog}
      className="log-viewer"
      aria-label={t("admin.viewer.label", { name })}
      onCancel={(e) => {
        e.preventDefault();
        onClose();
      }}
    >
      <article>
        <header className="log-viewer-bar">
          <strong>{name}</strong>
          <input
            type="search"
            placeholder={t("admin.viewer.searchPlaceholder")}
            aria-label={t("admin.viewer.search")}
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Check
            kind="switch"
            labelClassName="inline"
            checked={autoScroll}
            onChecked={setAutoScroll}
            label={t("admin.viewer.autoScroll")}
          />
          <button
            type="button"
            className="outline small"
            onClick={() => void refetch()}
            aria-busy={isFetching || undefined}
          >
            {t("admin.viewer.refresh")}
          </button>
          <button type="button" className="outline small" onClick={scrollToBottom}>
            {t("admin.viewer.scrollToBottom")}
          </button>
          <button type="button" className="small" onClick={onClose}>
            {t("common.close")}
          </button>
        </header>
        {data?.truncated && (
          <p className="log-viewer-note" role="note">
            {t("admin.viewer.truncated", {
              size: formatBytes(data.size),
              shown: formatBytes(data.shownBytes),
            })}
          </p>
        )}
        {search.trim() && (
          <p className="log-viewer-note">{t("admin.viewer.matching", { count: lines.length })}</p>
        )}
        <pre
          ref={scroller}
          className="log-viewer-content"
          role="log"
          aria-label={t("admin.viewer.content")}
        >
          {isError
            ? t("admin.viewer.contentFailed")
            : data
              ? lines.join("\n") || (search ? t("admin.viewer.noMatches") : t("admin.viewer.empty"))
              : t("common.loading")}
        </pre>
      </article>
    </dialog>
  );
}
