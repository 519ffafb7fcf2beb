/**
 * Reads back the QR code a page drew as SVG (qrcode's path of horizontal runs), as a phone's camera
 * would: the modules are painted into a bitmap and decoded by jsQR, so a test checks what is scanned,
 * not how the SVG is written.
 */
import jsQRModule from 'jsqr';

// A CommonJS module whose `module.exports` is the function itself, typed as if it were an ES `default`.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

const SCALE = 4;

/** The text of the first QR code in `page` (an `<svg>` with a `viewBox` and the dark path), or null. */
export function readSvgQr(page: string): string | null {
  const svg = /<svg[^>]*viewBox="0 0 (\d+) (\d+)"[^>]*>([\s\S]*?)<\/svg>/.exec(page);
  if (!svg) return null;
  const size = Number(svg[1]);
  const dark = /<path stroke="[^"]*" d="([^"]*)"/.exec(svg[3]!)?.[1];
  if (!dark) return null;
  const modules = new Uint8Array(size * size);
  let x = 0;
  let y = 0;
  for (const [, cmd, a, b] of dark.matchAll(/([Mmh])(-?[\d.]+)(?: (-?[\d.]+))?/g)) {
    const n = Number(a);
    if (cmd === 'M') [x, y] = [n, Math.floor(Number(b))];
    else if (cmd === 'm') [x, y] = [x + n, y + Math.floor(Number(b ?? 0))];
    else {
      for (let i = 0; i < n; i++) modules[y * size + x + i] = 1;
      x += n;
    }
  }
  const width = size * SCALE;
  const pixels = new Uint8ClampedArray(width * width * 4).fill(255);
  for (let py = 0; py < width; py++) {
    for (let px = 0; px < width; px++) {
      if (!modules[Math.floor(py / SCALE) * size + Math.floor(px / SCALE)]) continue;
      const at = (py * width + px) * 4;
      pixels[at] = pixels[at + 1] = pixels[at + 2] = 0;
    }
  }
  return jsQR(pixels, width, width)?.data ?? null;
}
