/**
 * The checks of what staff type about an operator account (back-office forms, admin CLI options), in
 * one place so both refuse the same values with the same message. Pure: no value is written anywhere
 * until the whole input is accepted.
 *
 * Credentials: no message ever repeats a credential value (nor a line that may be one): messages end up
 * on pages, in terminals and in logs.
 */
import { isOperatorPrefix } from './operator-routing.js';

export type ParsedField<T> = { ok: true; value: T } | { ok: false; error: string };

const MAX_PREFIXES = 200;
const MAX_SETTINGS_CHARS = 16_384;
const MAX_CREDENTIALS = 32;
const MAX_CREDENTIAL_CHARS = 8192;
export const DOWN_REASON_MIN = 3;
export const DOWN_REASON_MAX = 200;

/** Comma- or space-separated "+" and digits ("+22505, +22504"); empty: none (reachable only when named). */
export function parseOperatorPrefixes(raw: string): ParsedField<string[]> {
  const items = raw.split(/[\s,;]+/).filter((p) => p !== '');
  const bad = items.filter((p) => !isOperatorPrefix(p));
  if (bad.length > 0) {
    return {
      ok: false,
      error: `Not a prefix: ${bad.join(', ')}. A prefix is "+" then 3 to 15 digits of the international number, such as +22505; separate them with commas or spaces.`,
    };
  }
  const unique = [...new Set(items)];
  if (unique.length > MAX_PREFIXES) return { ok: false, error: `${MAX_PREFIXES} prefixes at most.` };
  return { ok: true, value: unique.sort((a, b) => b.length - a.length || a.localeCompare(b)) };
}

/** Where the operator's API is; empty: not configured (a simulator account then uses the services' own). */
export function parseOperatorBaseUrl(raw: string): ParsedField<string | null> {
  const text = raw.trim();
  if (text === '') return { ok: true, value: null };
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      error: 'The base URL must be a full http:// or https:// address, such as https://sandbox.momodeveloper.mtn.com.',
    };
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || !/^https?:\/\//i.test(text) || text.length > 2048) {
    return { ok: false, error: 'The base URL must be a full http:// or https:// address (2048 characters at most).' };
  }
  // Shown on the page to every role and kept in the audit log: credentials go in the credentials form.
  if (url.username || url.password)
    return { ok: false, error: 'The base URL must not contain a user name or password: set those as credentials.' };
  return { ok: true, value: text };
}

/** The adapter's plain (non-secret) settings: a JSON object; empty: {}. */
export function parseOperatorSettings(raw: string): ParsedField<Record<string, unknown>> {
  const text = raw.trim();
  if (text === '') return { ok: true, value: {} };
  if (text.length > MAX_SETTINGS_CHARS)
    return { ok: false, error: `The settings are ${MAX_SETTINGS_CHARS} characters at most.` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    return {
      ok: false,
      error: `The settings are not valid JSON (${(err as Error).message}). Write a JSON object, such as {"targetEnvironment": "sandbox"}.`,
    };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, error: 'The settings must be a JSON object, such as {"targetEnvironment": "sandbox"}.' };
  }
  return { ok: true, value: value as Record<string, unknown> };
}

const CREDENTIAL_NAME = /^[A-Za-z][A-Za-z0-9_.-]{0,63}$/;
const NAME_RULE = 'a name is a letter then letters, digits, "_", "." or "-" (64 characters at most)';

/**
 * The account's credentials, all of them (a rotation sends them all again): either a JSON object of
 * strings ({"apiUser": "...", "apiKey": "..."}) or one `name=value` per line (blank lines and lines
 * starting with # are skipped; the value is everything after the first "=", trimmed).
 */
export function parseOperatorCredentials(raw: string): ParsedField<Record<string, string>> {
  const text = raw.trim();
  if (text === '')
    return { ok: false, error: 'No credentials given: write them as JSON or as one name=value per line.' };
  if (text.length > MAX_CREDENTIAL_CHARS)
    return { ok: false, error: `The credentials are ${MAX_CREDENTIAL_CHARS} characters at most.` };
  const entries: [string, string][] = [];
  if (text.startsWith('{')) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      // JSON.parse's message quotes the text around the mistake: a credential, maybe.
      return {
        ok: false,
        error: 'The credentials are not valid JSON: write a JSON object of strings, or one name=value per line.',
      };
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { ok: false, error: 'The credentials must be a JSON object of strings.' };
    for (const [name, v] of Object.entries(value)) {
      if (!CREDENTIAL_NAME.test(name)) return { ok: false, error: `A credential name is not valid: ${NAME_RULE}.` };
      if (typeof v !== 'string' || v.trim() === '')
        return { ok: false, error: `The credential "${name}" must be a non-empty string.` };
      entries.push([name, v.trim()]);
    }
  } else {
    const lines = text.split(/\r?\n/);
    for (const [i, line] of lines.entries()) {
      const trimmed = line.trim();
      if (trimmed === '' || trimmed.startsWith('#')) continue;
      const eq = trimmed.indexOf('=');
      if (eq < 0) return { ok: false, error: `Line ${i + 1} is not name=value.` };
      const name = trimmed.slice(0, eq).trim();
      const v = trimmed.slice(eq + 1).trim();
      if (!CREDENTIAL_NAME.test(name)) return { ok: false, error: `Line ${i + 1}: ${NAME_RULE}.` };
      if (v === '') return { ok: false, error: `Line ${i + 1}: the credential "${name}" has no value.` };
      if (entries.some(([n]) => n === name)) return { ok: false, error: `The credential "${name}" is given twice.` };
      entries.push([name, v]);
    }
  }
  if (entries.length === 0)
    return { ok: false, error: 'No credentials given: write them as JSON or as one name=value per line.' };
  if (entries.length > MAX_CREDENTIALS) return { ok: false, error: `${MAX_CREDENTIALS} credentials at most.` };
  return { ok: true, value: Object.fromEntries(entries) };
}

/** Why an account is marked down: shown to staff, kept in the audit log. */
export function parseDownReason(raw: string): ParsedField<string> {
  const reason = raw.trim();
  if (reason.length < DOWN_REASON_MIN || reason.length > DOWN_REASON_MAX) {
    return { ok: false, error: `Say why it is down: ${DOWN_REASON_MIN} to ${DOWN_REASON_MAX} characters.` };
  }
  return { ok: true, value: reason };
}
