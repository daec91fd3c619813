/**
 * The media area of Edit Order's review section (docs/screens.md, docs/behaviour.md#data, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/messages.md, docs/behaviour.md#constants-and-limits): a drop zone and a
 * file picker, the client-side checks with the spec's messages, upload progress items (simulated
 * 10 % every 200 ms up to 90 %, success removed after 1 s, 'Upload failed' with Retry), the stored
 * photos and video with remove, and reordering by dragging or with the move buttons (keyboard).
 * Dropped addresses of images or MP4s are fetched here and uploaded; cloud albums are refused.
 */
import { useEffect, useRef, useState } from "react";
import type { Order } from "../../../../src/contract/orders.ts";
import { ConfirmDialog } from "../../../components/Dialog.tsx";
import { mediaSrc, useMediaToken, useReviewMedia } from "../../../hooks/useReviewMedia.ts";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { toast } from "../../../lib/toast.tsx";
import {
  ACCEPT,
  ALBUM_REFUSAL,
  canRetryUpload,
  checkFiles,
  classifyDroppedUrl,
  GOOGLE_PHOTOS_CDN,
  isVideoUrl,
  move,
  PROGRESS_CAP,
  PROGRESS_EVERY_MS,
  PROGRESS_STEP,
  SUCCESS_REMOVE_MS,
} from "./media-rules.ts";
import "../../../styles/media.css";

/** Upload progress item (docs/behaviour.md#data; client only). */
type UploadItem = {
  id: string;
  file: File;
  progress: number;
  status: "uploading" | "success" | "error";
  preview: string | null;
  errorMessage: string | null;
  /** The server's reason, shown under 'Upload failed'. */
  reason: string | null;
  /** False when the server refused the file itself: no Retry (canRetryUpload). */
  retryable: boolean;
};

const REORDER_TYPE = "application/x-grapevine-media";
let nextId = 0;

export function MediaArea({ order }: { order: Order }) {
  const { upload, remove, reorder } = useReviewMedia(order.orderid);
  // Removing a photo or the video asks first: the file is gone once deleted.
  const [confirmRemove, setConfirmRemove] = useState<{ url: string; label: string } | null>(null);
  const token = useMediaToken().data?.token;
  const [items, setItems] = useState<UploadItem[]>([]);
  const [override, setOverride] = useState<string[] | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [over, setOver] = useState(false);
  const [live, setLive] = useState("");
  const [removing, setRemoving] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);
  const dragFrom = useRef<number | null>(null);
  const focusAfter = useRef<{ index: number; dir: "earlier" | "later" } | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const itemsRef = useRef(items);
  itemsRef.current = items;

  const urls = override ?? order.reviewimages;

  // Previews are revoked when the area goes away.
  useEffect(
    () => () => {
      for (const it of itemsRef.current) if (it.preview) URL.revokeObjectURL(it.preview);
    },
    [],
  );

  // After a keyboard move, focus follows the moved item.
  useEffect(() => {
    const f = focusAfter.current;
    if (!f || !listRef.current) return;
    focusAfter.current = null;
    const li = listRef.current.querySelector(`[data-media-index="${f.index}"]`);
    const want = li?.querySelector<HTMLButtonElement>(`button[data-move="${f.dir}"]`);
    const other = li?.querySelector<HTMLButtonElement>(
      `button[data-move="${f.dir === "earlier" ? "later" : "earlier"}"]`,
    );
    (want && !want.disabled ? want : other)?.focus();
  });

  const patch = (id: string, p: Partial<UploadItem>) =>
    setItems((list) => list.map((it) => (it.id === id ? { ...it, ...p } : it)));

  function run(item: UploadItem) {
    queue.current = queue.current.then(async () => {
      patch(item.id, { status: "uploading", progress: 0, errorMessage: null, reason: null });
      const timer = setInterval(() => {
        setItems((list) =>
          list.map((it) =>
            it.id === item.id && it.status === "uploading"
              ? { ...it, progress: Math.min(PROGRESS_CAP, it.progress + PROGRESS_STEP) }
              : it,
          ),
        );
      }, PROGRESS_EVERY_MS);
      try {
        await upload.mutateAsync(item.file);
        clearInterval(timer);
        patch(item.id, { status: "success", progress: 100 });
        setLive(`${item.file.name} uploaded`);
        setTimeout(() => {
          if (item.preview) URL.revokeObjectURL(item.preview);
          setItems((list) => list.filter((it) => it.id !== item.id));
        }, SUCCESS_REMOVE_MS);
      } catch (err) {
        clearInterval(timer);
        patch(item.id, {
          status: "error",
          errorMessage: "Upload failed",
          reason: errorMessage(err, ""),
          retryable: canRetryUpload(err instanceof ApiError ? err.status : null),
        });
        setLive(`Upload failed: ${item.file.name}`);
      }
    });
  }

  function addFiles(files: File[]) {
    const pending = itemsRef.current.filter((it) => it.status !== "success").map((it) => it.file);
    const { accepted, error } = checkFiles(urls, pending, files);
    setRefusal(error);
    const created = accepted.map<UploadItem>((file) => ({
      id: `up-${++nextId}`,
      file,
      progress: 0,
      status: "uploading",
      preview: file.type.startsWith("image/") ? URL.createObjectURL(file) : null,
      errorMessage: null,
      reason: null,
      retryable: true,
    }));
    setItems((list) => [...list, ...created]);
    for (const it of created) run(it);
  }

  async function addFromUrl(text: string) {
    const d = classifyDroppedUrl(text);
    if (d.kind === "album") return setRefusal(ALBUM_REFUSAL);
    if (d.kind === "refuse") return setRefusal("Only image and video files are allowed");
    try {
      const res = await fetch(d.url, { mode: "cors", credentials: "omit" });
      if (!res.ok) throw new Error(String(res.status));
      const blob = await res.blob();
      const ext = blob.type.split("/")[1]?.replace("jpeg", "jpg") ?? "";
      const name = /\.\w{2,4}$/.test(d.name) ? d.name : `${d.name}.${ext}`;
      addFiles([new File([blob], name, { type: blob.type })]);
    } catch {
      if (GOOGLE_PHOTOS_CDN.test(new URL(d.url).hostname)) {
        toast({ title: "Google Photos download failed", variant: "destructive" });
      } else {
        toast({
          title: "Download failed",
          description:
            "The file could not be downloaded from that address. Save it to your device, then add it here.",
          variant: "destructive",
        });
      }
    }
  }

  function onDrop(e: React.DragEvent<HTMLElement>) {
    setOver(false);
    const data = e.dataTransfer;
    if (!data || data.types.includes(REORDER_TYPE)) return;
    e.preventDefault();
    const files = [...data.files];
    if (files.length > 0) return addFiles(files);
    const uri = data
      .getData("text/uri-list")
      .split(/\r?\n/)
      .find((l) => l && !l.startsWith("#"));
    const text = uri || data.getData("text/plain");
    if (text) void addFromUrl(text);
  }

  function reorderTo(next: string[], announce: string) {
    const before = urls;
    setOverride(next);
    setLive(announce);
    reorder.mutate(next, {
      onError: () => {
        setOverride(before);
        toast({
          title: "Reorder failed",
          description: "Unable to reorder images. Please try again.",
          variant: "destructive",
        });
      },
      onSettled: () => setOverride(null),
    });
  }

  function moveBy(i: number, delta: -1 | 1) {
    const to = i + delta;
    if (to < 0 || to >= urls.length) return;
    focusAfter.current = { index: to, dir: delta < 0 ? "earlier" : "later" };
    reorderTo(move(urls, i, to), `Moved to position ${to + 1} of ${urls.length}`);
  }

  async function removeUrl(url: string) {
    setConfirmRemove(null);
    setRemoving(url);
    try {
      await remove.mutateAsync(url);
      toast({ title: "Image deleted", variant: "success" });
    } catch {
      toast({
        title: "Delete failed",
        description: "Unable to delete image. Please try again.",
        variant: "destructive",
      });
    } finally {
      setRemoving(null);
    }
  }

  const videos = urls.filter(isVideoUrl).length;
  return (
    <section
      className="media-area"
      aria-labelledby="media-heading"
      onDragOver={(e) => {
        if (!e.dataTransfer || e.dataTransfer.types.includes(REORDER_TYPE)) return;
        e.preventDefault();
        setOver(true);
      }}
      onDragLeave={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOver(false);
      }}
      onDrop={onDrop}
    >
      <header>
        <h3 id="media-heading">Images and video</h3>
        <small>
          {urls.length}/10 files{videos > 0 ? " · 1 video" : ""}
        </small>
      </header>
      <div className={`drop-zone${over ? " over" : ""}`}>
        <p>Drag photos or a video here, or</p>
        <button type="button" className="outline" onClick={() => inputRef.current?.click()}>
          Choose files
        </button>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          aria-label="Choose images or video"
          onChange={(e) => {
            addFiles([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = "";
          }}
        />
        <small>
          JPEG, PNG, GIF or WebP up to 10 MB · one MP4 video up to 100 MB · 10 files at most
        </small>
      </div>
      {refusal && (
        <p role="alert" className="media-refusal">
          {refusal}
        </p>
      )}

      {(urls.length > 0 || items.length > 0) && (
        <ul ref={listRef} className="media-list" aria-label="Review images and video">
          {urls.map((url, i) => {
            const what = isVideoUrl(url) ? "video" : "image";
            const label = `${what} ${i + 1}`;
            return (
              <li
                key={url}
                data-media-index={i}
                className="media-item"
                draggable
                onDragStart={(e) => {
                  dragFrom.current = i;
                  e.dataTransfer?.setData(REORDER_TYPE, String(i));
                  if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
                }}
                onDragOver={(e) => {
                  if (dragFrom.current === null) return;
                  e.preventDefault();
                  if (e.dataTransfer) e.dataTransfer.dropEffect = "move";
                }}
                onDrop={(e) => {
                  const from = dragFrom.current;
                  dragFrom.current = null;
                  if (from === null) return;
                  e.preventDefault();
                  e.stopPropagation();
                  if (from !== i)
                    reorderTo(move(urls, from, i), `Moved to position ${i + 1} of ${urls.length}`);
                }}
                onDragEnd={() => {
                  dragFrom.current = null;
                }}
              >
                <div className="media-thumb">
                  {/* Asked for only once the media token is here: never a 401 first. */}
                  {!token ? (
                    <span
                      className="media-waiting"
                      role="img"
                      aria-label={`Review ${label} (loading)`}
                      aria-busy="true"
                    />
                  ) : what === "video" ? (
                    // biome-ignore lint/a11y/useMediaCaption: the reviewer's own clip has no captions
                    <video
                      src={mediaSrc(url, token)}
                      controls
                      preload="metadata"
                      aria-label={`Review ${label}`}
                    />
                  ) : (
                    <img
                      src={mediaSrc(url, token)}
                      alt={`Review ${label}`}
                      loading="lazy"
                      draggable={false}
                    />
                  )}
                  <span className="media-position" aria-hidden="true">
                    {i + 1}
                  </span>
                </div>
                <div className="media-actions">
                  <button
                    type="button"
                    className="outline secondary icon"
                    data-move="earlier"
                    aria-label={`Move ${label} earlier`}
                    title="Move earlier"
                    disabled={i === 0}
                    onClick={() => moveBy(i, -1)}
                  >
                    ←
                  </button>
                  <button
                    type="button"
                    className="outline secondary icon"
                    data-move="later"
                    aria-label={`Move ${label} later`}
                    title="Move later"
                    disabled={i === urls.length - 1}
                    onClick={() => moveBy(i, 1)}
                  >
                    →
                  </button>
                  <button
                    type="button"
                    className="outline danger icon"
                    aria-label={`Remove ${label}`}
                    title="Remove"
                    disabled={removing === url}
                    onClick={() => setConfirmRemove({ url, label })}
                  >
                    ✕
                  </button>
                </div>
              </li>
            );
          })}
          {items.map((it) => (
            <li key={it.id} className={`media-item upload-item ${it.status}`}>
              <div className="media-thumb">
                {it.preview ? (
                  <img
                    src={it.preview}
                    alt=""
                    onError={(e) => {
                      // not a picture after all (the server will say so): no broken-image icon
                      e.currentTarget.hidden = true;
                    }}
                  />
                ) : (
                  <span className="media-file-icon" aria-hidden="true">
                    ▶
                  </span>
                )}
              </div>
              <div className="upload-status">
                <span className="upload-name" title={it.file.name}>
                  {it.file.name}
                </span>
                {it.status !== "error" && (
                  <progress
                    value={it.progress}
                    max={100}
                    aria-label={`Uploading ${it.file.name}`}
                  />
                )}
                {it.status === "error" ? (
                  <>
                    <strong className="upload-error">{it.errorMessage}</strong>
                    {it.reason && <small>{it.reason}</small>}
                    <div className="media-actions">
                      {it.retryable && (
                        <button type="button" className="small" onClick={() => run(it)}>
                          Retry
                        </button>
                      )}
                      <button
                        type="button"
                        className="outline secondary small"
                        aria-label={`Dismiss ${it.file.name}`}
                        onClick={() => {
                          if (it.preview) URL.revokeObjectURL(it.preview);
                          setItems((list) => list.filter((x) => x.id !== it.id));
                        }}
                      >
                        Dismiss
                      </button>
                    </div>
                  </>
                ) : (
                  <small>
                    {it.status === "success" ? "Uploaded" : `Uploading… ${it.progress}%`}
                  </small>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <p className="visually-hidden" aria-live="polite">
        {live}
      </p>
      <ConfirmDialog
        open={confirmRemove !== null}
        title={`Delete ${confirmRemove?.label ?? "photo"}`}
        message={`Delete ${confirmRemove?.label ?? "this photo"} from this review? This cannot be undone.`}
        confirmLabel="Delete"
        onConfirm={() => confirmRemove && void removeUrl(confirmRemove.url)}
        onCancel={() => setConfirmRemove(null)}
      />
    </section>
  );
}
