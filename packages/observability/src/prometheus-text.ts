/**
 * A reader of Prometheus's text exposition format (what every service's /metrics answers), enough for
 * our own metrics: `name{label="value",...} value [timestamp]` lines, comments and blank lines skipped,
 * label values with their backslash escapes (\\, \", \n). prom-client writes this format but has no
 * reader. Used by the back-office's operator health (it scrapes the workers); @mm/testing's samplesOf
 * is the tests' reader of one series.
 */
export interface PromSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+-?\d+)?\s*$/;
const LABEL = /([a-zA-Z_]\w*)="((?:[^"\\]|\\.)*)"/g;

function parseValue(text: string): number {
  if (text === '+Inf') return Infinity;
  if (text === '-Inf') return -Infinity;
  return Number(text);
}

/** Every sample of the text; `only` keeps those whose name passes (skips the rest without reading their labels). */
export function parsePrometheusText(text: string, only?: (name: string) => boolean): PromSample[] {
  const samples: PromSample[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = LINE.exec(line);
    if (!m) continue;
    const name = m[1]!;
    if (only && !only(name)) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(LABEL)) {
      labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    }
    const value = parseValue(m[3]!);
    if (!Number.isNaN(value) || m[3] === 'NaN') samples.push({ name, labels, value });
  }
  return samples;
}
