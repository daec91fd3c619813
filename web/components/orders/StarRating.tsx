/** Star rating 1 to 5 as a radio group (arrow keys work), clearable (docs/behaviour.md#data, docs/behaviour.md#constants-and-limits). */
import { useId } from "react";
import { useT } from "../../i18n/index.ts";
import "../../styles/edit-order.css";

export function StarRating(props: {
  value: number | null;
  onChange: (value: number | null) => void;
  invalid?: boolean;
  describedBy?: string;
}) {
  const name = useId();
  const t = useT();
  return (
    <fieldset
      className="star-rating"
      aria-invalid={props.invalid || undefined}
      aria-describedby={props.describedBy}
    >
      <legend>{t("card.rating")}</legend>
      <div className="stars">
        {[1, 2, 3, 4, 5].map((n) => (
          <label key={n} className={props.value !== null && n <= props.value ? "on" : undefined}>
            <input
              type="radio"
              name={name}
              value={n}
              checked={props.value === n}
              onChange={() => props.onChange(n)}
              aria-label={t("card.stars", { count: n })}
            />
            <span aria-hidden="true">★</span>
          </label>
        ))}
        <button
          type="button"
          className="outline secondary small"
          onClick={() => props.onChange(null)}
          disabled={props.value === null}
        >
          {t("card.clearRating")}
        </button>
      </div>
    </fieldset>
  );
}
