/**
 * "1 order", "3 orders": a count with its noun in the plural form the count takes. The form is
 * chosen by Intl.PluralRules (CLDR's categories: one, other, and in other languages zero, two,
 * few, many), so each call maps one for one onto an ICU message such as
 * `{count, plural, one {# order} other {# orders}}` when the app is translated.
 */

/** The noun in each plural category; `other` is required (every language has it). */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string };

const english = new Intl.PluralRules("en-US");

/** The noun's form for the count ("order" for 1, "orders" for 0 and 2). */
export function pluralForm(count: number, forms: PluralForms): string {
  return forms[english.select(count)] ?? forms.other;
}

/** The count and its noun: plural(3, { one: "order", other: "orders" }) is "3 orders". */
export function plural(count: number, forms: PluralForms): string {
  return `${count} ${pluralForm(count, forms)}`;
}
