/**
 * The media area of Edit Order's review section (docs/screens.md, docs/behaviour.md#data, docs/behaviour.md#states-and-transitions, docs/behaviour.md#validation, docs/messages.md, docs/behaviour.md#constants-and-limits): a drop zone and a
 * file picker, the client-side checks with the spec's messages, upload progress items (simulated
 * 10 % every 200 ms up to 90 %, success removed after 1 s, 'Upload failed' with Retry), the stored
 * photos and video with remove, and reordering by dragging or with the move buttons (keyboard).
 * Dropped addresses of images or MP4s are fetched here and uploaded; cloud albums are refused.
 */
import { useEffect, useRef, useState } from "react";
import { MEDIA_MAX_FILES } from "../../../../src/contract/constants.ts";
import type { Order } from "../../../../src/contract/orders.ts";
import { ConfirmDialog } from "../../../components/Dialog.tsx";
import { mediaSrc, useMediaToken, useReviewMedia } from "../../../hooks/useReviewMedia.ts";
import { useT } from "../../../i18n/index.ts";
import { ApiError, errorMessage } from "../../../lib/api.ts";
import { toast } from "../../../lib/toast.tsx";
import {
  ACCEPT,
  canRetryUpload,
  checkFiles,
  classifyDroppedUrl,
  GOOGLE_PHOTOS_CDN,
  isVideoUrl,
  mediaMessages,
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

/** A stored photo or the video, as the messages name it ("image 2", "Bild 2", "画像2"). */
type MediaRef = { kind: "image" | "video"; position: number };

export function MediaArea({ order }: { order: Order }) {
  const t = useT();
  const { upload, remove, reorder } = useReviewMedia(order.orderid);
  // Removing a photo or the video asks first: the file is gone once deleted.
  const [confirmRemove, setConfirmRemove] = useState<{ url: string; ref: MediaRef } | null>(null);
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
        setLive(t("media.uploadedLive", { name: item.file.name }));
        setTimeout(() => {
          if (item.preview) URL.revokeObjectURL(item.preview);
          setItems((list) => list.filter((it) => it.id !== item.id));
        }, SUCCESS_REMOVE_MS);
      } catch (err) {
        clearInterval(timer);
        patch(item.id, {
          status: "error",
          errorMessage: t("media.uploadFailed"),
          reason: errorMessage(err, ""),
          retryable: canRetryUpload(err instanceof ApiError ? err.status : null),
        });
        setLive(t("media.uploadFailedLive", { name: item.file.name }));
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
    if (d.kind === "album") return setRefusal(mediaMessages.album());
    if (d.kind === "refuse") return setRefusal(mediaMessages.notMedia());
    try {
      const res = await fetch(d.url, { mode: "cors", credentials: "omit" });
      if (!res.ok) throw new Error(String(res.status));
      const blob = await res.blob();
      const ext = blob.type.split("/")[1]?.replace("jpeg", "jpg") ?? "";
      const name = /\.\w{2,4}$/.test(d.name) ? d.name : `${d.name}.${ext}`;
      addFiles([new File([blob], name, { type: blob.type })]);
    } catch {
      if (GOOGLE_PHOTOS_CDN.test(new URL(d.url).hostname)) {
        toast({ title: t("media.googlePhotosFailed"), variant: "destructive" });
      } else {
        toast({
          title: t("media.downloadFailed.title"),
          description: t("media.downloadFailed.text"),
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
          title: t("media.reorderFailed.title"),
          description: t("media.reorderFailed.text"),
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
    reorderTo(move(urls, i, to), t("media.moved", { position: to + 1, count: urls.length }));
  }

  async function removeUrl(url: string) {
    setConfirmRemove(null);
    setRemoving(url);
    try {
      await remove.mutateAsync(url);
      toast({ title: t("media.deleted"), variant: "success" });
    } catch {
      toast({
        title: t("media.deleteFailed.title"),
        description: t("media.deleteFailed.text"),
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
        <h3 id="media-heading">{t("media.title")}</h3>
        <small>
          {t(videos > 0 ? "media.countWithVideo" : "media.count", {
            count: urls.length,
            max: MEDIA_MAX_FILES,
          })}
        </small>
      </header>
      <div className={`drop-zone${over ? " over" : ""}`}>
        <p>{t("media.drop")}</p>
        <button type="button" className="outline" onClick={() => inputRef.current?.click()}>
          {t("media.chooseFiles")}
        </button>
        <input
          ref={inputRef}
          type="file"
          multiple
          accept={ACCEPT}
          hidden
          aria-label={t("media.chooseLabel")}
          onChange={(e) => {
            addFiles([...(e.currentTarget.files ?? [])]);
            e.currentTarget.value = "";
          }}
        />
        <small>{t("media.limits")}</small>
      </div>
      {refusal && (
        <p role="alert" className="media-refusal">
          {refusal}
        </p>
      )}

      {(urls.length > 0 || items.length > 0) && (
        <ul ref={listRef} className="media-list" aria-label={t("media.list")}>
          {urls.map((url, i) => {
            const ref: MediaRef = { kind: isVideoUrl(url) ? "video" : "image", position: i + 1 };
            const what = ref.kind;
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
                    reorderTo(
                      move(urls, from, i),
                      t("media.moved", { position: i + 1, count: urls.length }),
                    );
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
                      aria-label={t("media.itemLoading", ref)}
                      aria-busy="true"
                    />
                  ) : what === "video" ? (
                    // biome-ignore lint/a11y/useMediaCaption: the reviewer's own clip has no captions
                    <video
                      src={mediaSrc(url, token)}
                      controls
                      preload="metadata"
                      aria-label={t("media.item", ref)}
                    />
                  ) : (
                    <img
                      src={mediaSrc(url, token)}
                      alt={t("media.item", ref)}
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
                    aria-label={t("media.moveEarlier", ref)}
                    title={t("media.moveEarlierTitle")}
                    disabled={i === 0}
                    onClick={() => moveBy(i, -1)}
                  >
                    ←
                  </button>
                  <button
                    type="button"
                    className="outline secondary icon"
                    data-move="later"
                    aria-label={t("media.moveLater", ref)}
                    title={t("media.moveLaterTitle")}
                    disabled={i === urls.length - 1}
                    onClick={() => moveBy(i, 1)}
                  >
                    →
                  </button>
                  <button
                    type="button"
                    className="outline danger icon"
                    aria-label={t("media.remove", ref)}
                    title={t("media.removeTitle")}
                    disabled={removing === url}
                    onClick={() => setConfirmRemove({ url, ref })}
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
                    aria-label={t("media.uploading", { name: it.file.name })}
                  />
                )}
                {it.status === "error" ? (
                  <>
                    <strong className="upload-error">{it.errorMessage}</strong>
                    {it.reason && <small>{it.reason}</small>}
                    <div className="media-actions">
                      {it.retryable && (
                        <button type="button" className="small" onClick={() => run(it)}>
                          {t("media.retry")}
                        </button>
                      )}
                      <button
                        type="button"
                        className="outline secondary small"
                        aria-label={t("media.dismissLabel", { name: it.file.name })}
                        onClick={() => {
                          if (it.preview) URL.revokeObjectURL(it.preview);
                          setItems((list) => list.filter((x) => x.id !== it.id));
                        }}
                      >
                        {t("media.dismiss")}
                      </button>
                    </div>
                  </>
                ) : (
                  <small>
                    {it.status === "success"
                      ? t("media.uploaded")
                      : t("media.progress", { percent: it.progress })}
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
        title={confirmRemove ? t("media.delete.title", confirmRemove.ref) : ""}
        message={confirmRemove ? t("media.delete.confirm", confirmRemove.ref) : ""}
        confirmLabel={t("common.delete")}
        onConfirm={() => confirmRemove && void removeUrl(confirmRemove.url)}
        onCancel={() => setConfirmRemove(null)}
      />
    </section>
  );
}
