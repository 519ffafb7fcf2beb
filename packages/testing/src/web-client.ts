/**
 * A browser-like HTTP client for tests: keeps cookies, does not follow redirects (tests look at them),
 * posts forms urlencoded and reads the CSRF token out of the last page, as a browser submitting the form would.
 */
export interface PageResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The Location header of a redirect. */
  location: string | null;
}

export class TestClient {
  readonly cookies = new Map<string, string>();
  /** The `_csrf` value of the last HTML page received that had one. */
  csrf: string | undefined;

  /**
   * `headers` go with every request: e.g. the X-Forwarded-* a TLS-terminating proxy would add.
   * `sessionCookie` is the app's session cookie (the back-office's by default).
   */
  constructor(
    readonly baseUrl: string,
    readonly headers: Record<string, string> = {},
    readonly sessionCookie = 'mm_bo_sid',
  ) {}

  async get(path: string): Promise<PageResponse> {
    return this.request('GET', path);
  }

  /**
   * Posts a form; `_csrf` is the last page's token unless the form gives its own (or null: none sent).
   * An array sends the field once per value, as checked checkboxes of one name do.
   */
  async post(path: string, form: Record<string, string | string[] | null> = {}): Promise<PageResponse> {
    const fields = new URLSearchParams();
    if (!('_csrf' in form) && this.csrf) fields.append('_csrf', this.csrf);
    for (const [k, v] of Object.entries(form)) for (const one of v === null ? [] : [v].flat()) fields.append(k, one);
    return this.request('POST', path, fields.toString());
  }

  /**
   * Posts a multipart form (a file upload), as a browser does for `enctype="multipart/form-data"`: the
   * fields, `_csrf` the last page's token unless given (or null: none sent), then the files.
   */
  async postMultipart(
    path: string,
    fields: Record<string, string | null> = {},
    files: { field: string; name: string; content: string | Uint8Array; type?: string }[] = [],
  ): Promise<PageResponse> {
    const form = new FormData();
    if (!('_csrf' in fields) && this.csrf) form.append('_csrf', this.csrf);
    for (const [k, v] of Object.entries(fields)) if (v !== null) form.append(k, v);
    for (const f of files) form.append(f.field, new Blob([f.content], { type: f.type ?? 'text/csv' }), f.name);
    return this.request('POST', path, form);
  }

  /** GET /login, then POST the form. */
  async logIn(email: string, password: string): Promise<PageResponse> {
    await this.get('/login');
    return this.post('/login', { email, password });
  }

  /** The session id inside the signed session cookie (`s:<id>.<signature>`), as the Redis key names it. */
  sessionId(): string | undefined {
    const cookie = this.cookies.get(this.sessionCookie);
    return cookie ? /^s:([^.]+)\./.exec(decodeURIComponent(cookie))?.[1] : undefined;
  }

  private async request(method: string, path: string, body?: string | FormData): Promise<PageResponse> {
    const headers: Record<string, string> = { ...this.headers };
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    // A FormData body sets its own multipart content type, with its boundary.
    if (typeof body === 'string') headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(`${this.baseUrl}${path}`, { method, headers, body, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const expired = attributes.some((a) => /^\s*expires=Thu, 01 Jan 1970/i.test(a) || /^\s*max-age=0$/i.test(a));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, pair!.slice(eq + 1).trim());
    }
    const text = await res.text();
    const token = /name="_csrf" value="([^"]+)"/.exec(text)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, headers: res.headers, text, location: res.headers.get('location') };
  }
}
