import type { ReactNode } from "react";

/** A form's error above its fields, announced when it appears; nothing when there is none. */
export function FormError({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div role="alert" className="alert alert-error">
      {children}
    </div>
  );
}
