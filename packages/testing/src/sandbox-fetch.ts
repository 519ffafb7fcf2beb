/**
 * fetch() bound to the operator simulator's sandbox (its /sandbox routes and virtual phone), with the
 * sandbox token every client of those routes must send (SIM_SANDBOX_TOKEN).
 */
export type SandboxFetch = (path: string, init?: RequestInit) => Promise<Response>;

export function sandboxFetch(simulatorUrl: string, sandboxToken: string): SandboxFetch {
  return (path, init = {}) =>
    fetch(`${simulatorUrl}${path}`, {
      ...init,
      headers: { ...(init.headers as Record<string, string> | undefined), Authorization: `Bearer ${sandboxToken}` },
    });
}
