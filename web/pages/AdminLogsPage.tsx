/** Admin log files (docs/screens.md): list, view (tail, search, refresh, auto-scroll), download, delete. */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState } from "react";
import { Link } from "wouter";
import { plural } from "../../src/util/plural.ts";
import { ConfirmDialog } from "../components/Dialog.tsx";
import { Check } from "../components/Field.tsx";
import { useLogFile, useLogFiles } from "../hooks/useAdminLogs.ts";
import { useTimeZone } from "../hooks/useTimeZone.ts";
import { ApiError, apiRequest, downloadFile, errorMessage } from "../lib/api.ts";
import { isAdmin, useAuth } from "../lib/auth.tsx";
import { formatBytes, formatDate } from "../lib/format.ts";
import { adminLogKeys } from "../lib/query-keys.ts";
import { toast, toastError } from "../lib/toast.tsx";

export function AdminLogsPage() {
  // Only the administrator may read them (the API answers 403): anyone else is told so, with no
  // Try Again that could never work.
  const admin = isAdmin(useAuth().user);
  const { data, isLoading, isError, refetch, error } = useLogFiles({ enabled: admin });
  const forbidden = !admin || (error instanceof ApiError && error.status === 403);
  const queryClient = useQueryClient();
  const timeZone = useTimeZone();
  const [viewing, setViewing] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<string | null>(null);

  useEffect(() => {
    if (isError && !forbidden) toastError(error, "Failed to load log files");
  }, [isError, error, forbidden]);

  const remove = useMutation({
    mutationFn: (name: string) =>
      apiRequest("DELETE", `/api/admin/logs/${encodeURIComponent(name)}`),
    onSuccess: () => {
      toast({ title: "File Deleted", variant: "success" });
      setDeleting(null);
      void queryClient.invalidateQueries({ queryKey: adminLogKeys.all() });
    },
    onError: (err) => {
      toastError(err, "Failed to delete log file");
      setDeleting(null);
    },
  });

  async function download(name: string) {
    try {
      toast({ title: "Download Started" });
      await downloadFile(`/api/admin/logs/${encodeURIComponent(name)}/download`, name);
    } catch (err) {
      toastError(err, "Failed to download log file");
    }
  }

  return (
    <main className="container">
      <hgroup>
        <h1>Log Files</h1>
        <p>Server logs, one file per day. Older files are removed automatically.</p>
      </hgroup>
      {forbidden ? (
        <article className="empty-state">
          <h2>Administrators Only</h2>
          <p>Only this server's administrator (the first account created) can see its log files.</p>
          <Link href="/" className="button-link">
            Back to dashboard
          </Link>
        </article>
      ) : isLoading ? (
        <article aria-busy="true">Loading log files…</article>
      ) : isError ? (
        <article className="empty-state">
          <h2>Error Loading Log Files</h2>
          <p>{errorMessage(error, "The log files could not be loaded.")}</p>
          <button type="button" onClick={() => void refetch()}>
            Try Again
          </button>
        </article>
      ) : !data?.files.length ? (
        <article className="empty-state">
          <h2>No Log Files Found</h2>
          <p>Log files appear here as soon as the server writes its first line.</p>
        </article>
      ) : (
        <div className="table-scroll">
          <table className="striped log-table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Size</th>
                <th scope="col">Modified</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {data.files.map((f) => (
                <tr key={f.name}>
                  <td>
                    <code>{f.name}</code>
                  </td>
                  <td data-label="Size">{formatBytes(f.size)}</td>
                  <td data-label="Modified">{formatDate(f.modified, timeZone)}</td>
                  <td className="actions">
                    <button
                      type="button"
                      className="outline small"
                      onClick={() => setViewing(f.name)}
                    >
                      View
                    </button>
                    <button
                      type="button"
                      className="outline small"
                      onClick={() => void download(f.name)}
                    >
                      Download
                    </button>
                    <button
                      type="button"
                      className="outline small danger"
                      onClick={() => setDeleting(f.name)}
                    >
                      Delete
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
        title="Delete log file"
        message="Are you sure you want to delete the file? This action cannot be undone"
        confirmLabel="Delete"
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
      {viewing && <LogViewer name={viewing} onClose={() => setViewing(null)} />}
    </main>
  );
}

function LogViewer({ name, onClose }: { name: string; onClose: () => void }) {
  const { data, isFetching, isError, error, refetch } = useLogFile(name);
  const [search, setSearch] = useState("");
  const [autoScroll, setAutoScroll] = useState(true);
  const scroller = useRef<HTMLPreElement>(null);
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    dialog.current?.showModal();
  }, []);

  useEffect(() => {
    if (isError) toastError(error, "Failed to load file content");
  }, [isError, error]);

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
      aria-label={`Log file ${name}`}
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
            placeholder="Search this log..."
            aria-label="Search this log"
            value={search}
            onChange={(e) => setSearch(e.currentTarget.value)}
          />
          <Check
            kind="switch"
            labelClassName="inline"
            checked={autoScroll}
            onChecked={setAutoScroll}
            label="Auto-scroll"
          />
          <button
            type="button"
            className="outline small"
            onClick={() => void refetch()}
            aria-busy={isFetching || undefined}
          >
            Refresh
          </button>
          <button type="button" className="outline small" onClick={scrollToBottom}>
            Scroll to bottom
          </button>
          <button type="button" className="small" onClick={onClose}>
            Close
          </button>
        </header>
        {data?.truncated && (
          <p className="log-viewer-note" role="note">
            This file is {formatBytes(data.size)}; showing its last {formatBytes(data.shownBytes)}.
            Download it to see all of it.
          </p>
        )}
        {search.trim() && (
          <p className="log-viewer-note">
            {plural(lines.length, { one: "matching line", other: "matching lines" })}
          </p>
        )}
        <pre ref={scroller} className="log-viewer-content" role="log" aria-label="Log content">
          {isError
            ? "The file content could not be loaded."
            : data
              ? lines.join("\n") || (search ? "No matching lines." : "This file is empty.")
              : "Loading…"}
        </pre>
      </article>
    </dialog>
  );
}
