export interface Sample {
  labels: Record<string, string>;
  value: number;
}

/**
 * The samples of one series name in Prometheus's text format (what /metrics answers), e.g.
 * `mm_queue_job_duration_seconds_count`. Label values are read as our metrics write them: quoted, with
 * backslash escapes.
 */
export function samplesOf(text: string, name: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g))
      labels[k!] = v!.replace(/\\(.)/g, (_, c: string) => (c === 'n' ? '\n' : c));
    samples.push({ labels, value: Number(m[3]) });
  }
  return samples;
}

/** The samples of `name` summed by the values of `by` (a label name), as "value of by" -> sum. */
export function sumBy(
  text: string,
  name: string,
  by: (labels: Record<string, string>) => string,
): Record<string, number> {
  const sums: Record<string, number> = {};
  for (const s of samplesOf(text, name)) sums[by(s.labels)] = (sums[by(s.labels)] ?? 0) + s.value;
  return sums;
}
