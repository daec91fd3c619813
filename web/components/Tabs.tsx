/**
 * The one tab strip of the app (Account, Edit Order), after the ARIA tabs pattern: a tablist of
 * buttons with a roving tabindex (Tab enters at the selected tab and leaves to the panel), ←/→
 * move to the previous/next tab and select it (wrapping), Home/End to the first/last; the panel
 * is labelled by its tab. Long labels on wide screens, short ones on phones.
 */
import { type KeyboardEvent, type ReactNode, useRef } from "react";

export type TabItem<T extends string> = { id: T; label: string; short?: string };

export function Tabs<T extends string>(props: {
  tabs: readonly TabItem<T>[];
  active: T;
  onSelect: (id: T) => void;
  /** The tablist's accessible name ("Account sections"). */
  label: string;
  /** Extra classes of one tab (e.g. "has-error"). */
  tabClass?: (id: T) => string | undefined;
  children: ReactNode;
}) {
  const { tabs, active, onSelect } = props;
  const list = useRef<HTMLDivElement>(null);

  function onKeyDown(e: KeyboardEvent<HTMLButtonElement>) {
    const i = tabs.findIndex((t) => t.id === active);
    let next: number;
    if (e.key === "ArrowRight") next = (i + 1) % tabs.length;
    else if (e.key === "ArrowLeft") next = (i - 1 + tabs.length) % tabs.length;
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = tabs.length - 1;
    else return;
    e.preventDefault();
    const id = tabs[next]!.id;
    onSelect(id);
    list.current?.querySelector<HTMLButtonElement>(`#tab-${CSS.escape(id)}`)?.focus();
  }

  return (
    <>
      <div role="tablist" className="tabs" aria-label={props.label} ref={list}>
        {tabs.map((t) => {
          const selected = t.id === active;
          const extra = props.tabClass?.(t.id);
          return (
            <button
              key={t.id}
              type="button"
              role="tab"
              id={`tab-${t.id}`}
              aria-selected={selected}
              aria-controls={`panel-${t.id}`}
              tabIndex={selected ? 0 : -1}
              className={["tab", selected ? "active" : "", extra ?? ""].join(" ").trim()}
              onClick={() => onSelect(t.id)}
              onKeyDown={onKeyDown}
            >
              <span className="label-long">{t.label}</span>
              <span className="label-short">{t.short ?? t.label}</span>
            </button>
          );
        })}
      </div>
      <section role="tabpanel" id={`panel-${active}`} aria-labelledby={`tab-${active}`}>
        {props.children}
      </section>
    </>
  );
}
