/**
 * Focuses an element once it is on the page. The app is shipped with Preact (scripts/build-web.ts),
 * which writes `autoFocus` as the HTML attribute, and browsers honour that only while the page
 * loads; an editor opened later (a card's status select, its tracking editor) is focused here.
 */
import { useLayoutEffect, useRef } from "react";

export function useAutoFocus<T extends HTMLElement>(enabled: boolean) {
  const ref = useRef<T>(null);
  // A layout effect runs as the element is put on the page; Preact runs plain effects only after
  // the next frame, and a key pressed meanwhile (Escape on a just-opened editor) would miss it.
  useLayoutEffect(() => {
    if (enabled) ref.current?.focus();
  }, [enabled]);
  return ref;
}
