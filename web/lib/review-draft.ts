/**
 * Unsaved review text kept on this device (docs/behaviour.md "Review drafts"):
 * while Edit Order's review subject or text differs from the saved order, it is written to
 * localStorage under the user and the order; leaving the screen any way (Cancel, the header's
 * back arrow, the browser's back, a closed tab, a session that ended) keeps it, and the next visit
 * offers it back. Saving, restoring-then-saving or discarding removes it; drafts older than
 * DRAFT_MAX_AGE_DAYS are dropped. Storage failures (private mode, a full quota) are ignored: the
 * screen still works, only without the safety net.
 */

export type ReviewDraft = { subject: string; text: string; savedAt: string };

export const DRAFT_MAX_AGE_DAYS = 30;
const PREFIX = "grapevine:review-draft:";

const keyOf = (userId: number, orderId: number) => `${PREFIX}${userId}:${orderId}`;

function storage(): Storage | null {
  try {
    return typeof localStorage === "undefined" ? null : localStorage;
  } catch {
    return null;
  }
}

/** The kept draft, or null (none, unreadable or too old). */
export function readDraft(userId: number, orderId: number, now = new Date()): ReviewDraft | null {
  const s = storage();
  if (!s) return null;
  try {
    const raw = s.getItem(keyOf(userId, orderId));
    if (!raw) return null;
    const d = JSON.parse(raw) as Partial<ReviewDraft>;
    if (typeof d.subject !== "string" || typeof d.text !== "string") return null;
    const at = Date.parse(String(d.savedAt));
    if (!Number.isFinite(at) || now.getTime() - at > DRAFT_MAX_AGE_DAYS * 86_400_000) {
      s.removeItem(keyOf(userId, orderId));
      return null;
    }
    return { subject: d.subject, text: d.text, savedAt: new Date(at).toISOString() };
  } catch {
    return null;
  }
}

export function writeDraft(userId: number, orderId: number, draft: ReviewDraft): void {
  try {
    storage()?.setItem(keyOf(userId, orderId), JSON.stringify(draft));
  } catch {
    // quota or privacy mode: no draft, nothing else changes
  }
}

export function clearDraft(userId: number, orderId: number): void {
  try {
    storage()?.removeItem(keyOf(userId, orderId));
  } catch {
    // as above
  }
}

/** True when the draft says something the saved review does not. */
export function draftDiffers(
  draft: ReviewDraft | null,
  saved: { reviewsubject: string | null; reviewtext: string | null },
): draft is ReviewDraft {
  if (!draft) return false;
  return (
    draft.subject.trim() !== (saved.reviewsubject ?? "").trim() ||
    draft.text.trim() !== (saved.reviewtext ?? "").trim()
  );
}
