/**
 * The portal's language: the one the user chose (the `mm_lang` cookie, set by the switch in the header,
 * kept a year), else the browser's preference among ours (Accept-Language), else French, the language of
 * most of our merchants.
 */
import type { Request } from 'express';

export const LOCALES = ['fr', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const LOCALE_COOKIE = 'mm_lang';

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** `mm_lang=en` in a Cookie header, read without a cookie parser (it is the only cookie we read ourselves). */
function chosenLocale(cookieHeader: string | undefined): Locale | null {
  for (const part of (cookieHeader ?? '').split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LOCALE_COOKIE && isLocale(value)) return value;
  }
  return null;
}

export function localeOf(req: Request): Locale {
  const chosen = chosenLocale(req.get('cookie'));
  if (chosen) return chosen;
  const preferred = req.acceptsLanguages(...LOCALES);
  return isLocale(preferred) ? preferred : 'fr';
}
