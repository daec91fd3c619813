/** A select of the languages Grapevine speaks, each by its own name (sign-in page, Profile). */
import { useId } from "react";
import { LANGUAGE_NAMES, LANGUAGES, type Language } from "../../src/i18n/languages.ts";
import { currentLanguage, useT } from "./index.ts";

export function LanguagePicker({
  onPick,
  disabled,
  className,
}: {
  onPick: (language: Language) => void;
  disabled?: boolean;
  className?: string;
}) {
  const t = useT();
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{t("common.language")}</label>
      <select
        id={id}
        value={currentLanguage()}
        disabled={disabled}
        onChange={(e) => onPick(e.target.value as Language)}
      >
        {LANGUAGES.map((l) => (
          <option key={l} value={l} lang={l}>
            {LANGUAGE_NAMES[l]}
          </option>
        ))}
      </select>
    </div>
  );
}
