/**
 * Charts as SVG written on the server: the pages run no script (the CSP forbids it) and load nothing from
 * elsewhere. Each chart is an image with a title and a description that says what it shows in words (read by
 * screen readers: role="img" + aria-labelledby), each bar carries its own <title> (shown on hover or long press),
 * and the page puts the same figures in a table next to it. The viewBox is 360 units wide, a phone's width, so
 * that the 11-unit text stays readable there; the stylesheet caps its width on a desk.
 */
import { html, type SafeHtml } from '@mm/web';

export interface Bar {
  /** The bar's label under the axis (shown for a few bars only when there are many). */
  label: string;
  /** Null: no value (no bar drawn, a tick on the axis instead). */
  value: number | null;
  /** What the bar's own title says, e.g. "2 Dec: 12 000 XOF". */
  title: string;
}

export interface ChartText {
  id: string;
  title: string;
  desc: string;
}

const W = 360;
const H = 170;
const TOP = 16;
const BOTTOM = 22;
const PLOT_H = H - TOP - BOTTOM;

const fixed = (n: number) => Number(n.toFixed(1));
// The first and last labels grow inwards, so that neither is cut at the edge.
const anchor = (i: number, n: number) => (i === 0 ? 'start' : i === n - 1 ? 'end' : 'middle');

/** A round maximum for the axis (1, 2 or 5 times a power of ten) at or above the largest value. */
export function axisMax(max: number): number {
  if (max <= 0) return 1;
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

/** The chart in a figure whose caption shows its title; the SVG names itself by the same title and its description. */
function frame(text: ChartText, body: SafeHtml, height = H, width = W, caption = true): SafeHtml {
  return html`<figure class="chart">${caption ? html`<figcaption>${text.title}</figcaption>` : ''}
<svg class="chart" id="${text.id}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="${text.id}-title ${text.id}-desc" xmlns="http://www.w3.org/2000/svg">
<title id="${text.id}-title">${text.title}</title><desc id="${text.id}-desc">${text.desc}</desc>
${body}</svg></figure>`;
}

/**
 * Vertical bars, one per item (a day), over an axis from 0 to a round maximum (or `max`, e.g. 100 for a rate);
 * `axisLabel` writes the maximum's label (an amount in its currency, a percentage).
 */
export function columnChart(
  text: ChartText,
  bars: readonly Bar[],
  opts: { max?: number; axisLabel: (value: number) => string; labelEvery?: number },
): SafeHtml {
  const top = opts.max ?? axisMax(Math.max(0, ...bars.map((b) => b.value ?? 0)));
  const slot = (W - 8) / Math.max(bars.length, 1);
  const width = Math.max(1, slot * 0.7);
  const every = opts.labelEvery ?? Math.max(1, Math.ceil(bars.length / 5));
  const baseline = TOP + PLOT_H;
  // The maximum's label sits above the plot, where no bar reaches; the half-way line has none.
  const half = fixed(baseline - PLOT_H / 2);
  const grid = html`<line class="grid" x1="4" x2="${W - 4}" y1="${TOP}" y2="${TOP}" stroke="#dde3ea"/>
<text x="4" y="${TOP - 4}">${opts.axisLabel(top)}</text>
<line class="grid" x1="4" x2="${W - 4}" y1="${half}" y2="${half}" stroke="#dde3ea" stroke-dasharray="3 3"/>`;
  const columns = bars.map((b, i) => {
    const x = fixed(4 + i * slot + (slot - width) / 2);
    const label =
      i % every === 0 || i === bars.length - 1
        ? html`<text x="${fixed(x + width / 2)}" y="${H - 6}" text-anchor="${anchor(i, bars.length)}">${b.label}</text>`
        : html``;
    if (b.value === null) {
      return html`<g><title>${b.title}</title><rect class="none" x="${x}" y="${baseline - 2}" width="${fixed(width)}" height="2" fill="#cfd8e3"/></g>${label}`;
    }
    const h = top > 0 ? (Math.max(0, b.value) / top) * PLOT_H : 0;
    // A day at zero keeps a hairline, so that the eye sees a day with nothing, not a missing day.
    const shown = b.value > 0 ? Math.max(h, 1) : 0.5;
    return html`<g><title>${b.title}</title><rect class="bar" x="${x}" y="${fixed(baseline - shown)}" width="${fixed(width)}" height="${fixed(shown)}" fill="#2a8a66"/></g>${label}`;
  });
  return frame(
    text,
    html`${grid}<line x1="4" x2="${W - 4}" y1="${baseline}" y2="${baseline}" stroke="#5f6b7a"/>${columns}`,
  );
}

/**
 * Horizontal bars, one per row (a reason, an operator), each labelled with its name and its figure. Under a
 * heading of its own (no caption), and narrower (300 units) so that its text is a little larger on a phone.
 */
export function barList(text: ChartText, rows: readonly { label: string; value: number; figure: string }[]): SafeHtml {
  const rowH = 34;
  const width = 300;
  const height = rows.length * rowH + 8;
  const top = Math.max(1, ...rows.map((r) => r.value));
  const body = rows.map((r, i) => {
    const y = 4 + i * rowH;
    const w = Math.max(1, (r.value / top) * (width - 8));
    return html`<g><title>${r.label}: ${r.figure}</title>
<text x="4" y="${y + 11}">${r.label} · ${r.figure}</text>
<rect class="bar" x="4" y="${y + 16}" width="${fixed(w)}" height="12" fill="#2a8a66"/></g>`;
  });
  return frame(text, html`${body}`, height, width, false);
}
