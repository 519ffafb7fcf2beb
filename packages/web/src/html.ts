/**
 * HTML built with a tagged template that escapes every interpolated value by default. Trusted markup
 * is either another `html` fragment or wrapped in `raw()` on purpose, so forgetting to escape is not
 * possible by accident: `html`<td>${merchant.name}</td>`` is safe whatever the name contains.
 */

export class SafeHtml {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`]/g, (c) => ESCAPES[c]!);
}

/** What may be interpolated: nested fragments and arrays of them are kept, anything else is escaped. */
export type HtmlValue = SafeHtml | string | number | bigint | boolean | null | undefined | Date | readonly HtmlValue[];

function render(value: HtmlValue): string {
  if (value instanceof SafeHtml) return value.value;
  // Lists render as their items joined with nothing: html`<ul>${rows.map((r) => html`<li>${r}</li>`)}</ul>`.
  if (Array.isArray(value)) return value.map(render).join('');
  // null, undefined and false render nothing, so `${cond && html`...`}` works.
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Date) return escapeHtml(value.toISOString());
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new SafeHtml(out);
}

/** Markup that is trusted as it is (a constant, or already escaped): the one way around escaping. */
export function raw(trusted: string): SafeHtml {
  return new SafeHtml(trusted);
}
