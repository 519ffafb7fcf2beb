/**
 * Reading values from a query string or a posted form. Express hands over `string | string[] | object`
 * for any key (a key repeated by hand becomes an array): these helpers take only what a form sends.
 */

export { isUuid } from '@mm/domain';

/** The trimmed text of a single-valued field; '' when absent or blank; null when it is not one string. */
export function textField(source: unknown, key: string): string | null {
  const value = (source as Record<string, unknown> | undefined)?.[key];
  if (value === undefined) return '';
  return typeof value === 'string' ? value.trim() : null;
}

/** Every value of a field that may repeat (checkboxes): one string or an array of strings. */
export function listField(source: unknown, key: string): string[] {
  const value = (source as Record<string, unknown> | undefined)?.[key];
  if (typeof value === 'string') return [value];
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}
