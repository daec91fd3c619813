/**
 * A product's picture, or the package placeholder when there is none or it cannot be loaded (a
 * dead link shows the parcel, never the browser's broken-image box).
 */
import { useState } from "react";
import { PackageIcon } from "./PackageIcon.tsx";

export function ProductImage(props: {
  src: string | null | undefined;
  alt: string;
  size?: number;
}) {
  const src = props.src?.trim() || null;
  // The address that failed; a new address is tried again.
  const [failed, setFailed] = useState<string | null>(null);
  if (!src || failed === src) return <PackageIcon size={props.size} />;
  return <img src={src} alt={props.alt} loading="lazy" onError={() => setFailed(src)} />;
}
