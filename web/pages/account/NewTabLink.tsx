/** A link that opens in a new tab; its words come from a `<Trans>` message's `<0>…</0>`. */
import type { ReactNode } from "react";

export function NewTabLink({ href, children }: { href: string; children?: ReactNode }) {
  return (
    <a href={href} target="_blank" rel="noreferrer">
      {children}
    </a>
  );
}
