import { Resvg } from '@resvg/resvg-js';
import jsQRModule from 'jsqr';
import { PNG } from 'pngjs';
import { QR_PNG_CONTENT_TYPE, QR_PNG_TARGET_WIDTH, QR_SVG_CONTENT_TYPE, qrCodePng, qrCodeSvg } from './qr-code.js';

// A CommonJS module whose `module.exports` is the function itself, typed as if it were an ES `default`.
const jsQR = jsQRModule as unknown as typeof jsQRModule.default;

const SHORT = 'https://pay.example.com/l/abc';
// A real link's address: the slug is 128 random bits, 22 base64url characters.
const LONG = 'https://pay.example.com/l/x0Tn3C1bWQ7a0mF2yJb8pg';
// One with both base64url characters that are not letters or digits.
const DASHED = 'https://pay.example.com/l/Zz-_09aAyYbB-_cCdD3x_Q';

// Each PNG made once: pngjs's filters run dozens of times slower in jest's VM context than in plain Node.
const made = new Map<string, Promise<Buffer>>();
function pngOf(url: string): Promise<Buffer> {
  if (!made.has(url)) made.set(url, qrCodePng(url));
  return made.get(url)!;
}

/** What a phone's camera reads in an RGBA bitmap, or null. */
function scan(rgba: Uint8Array, width: number, height: number): { data: string; binaryData: number[] } | null {
  return jsQR(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.length), width, height);
}

function readPng(png: Buffer) {
  return PNG.sync.read(png);
}

/** The SVG painted as a print or a browser would, `pxPerModule` pixels a module, then scanned. */
function scanSvg(svg: string, pxPerModule = 8): string | null {
  const modules = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const rendered = new Resvg(svg, { fitTo: { mode: 'width', value: modules * pxPerModule } }).render();
  return scan(rendered.pixels, rendered.width, rendered.height)?.data ?? null;
}

describe('qrCodePng', () => {
  it.each([SHORT, LONG, DASHED])('reads back as exactly %s', async (url) => {
    const png = readPng(await pngOf(url));
    const read = scan(png.data, png.width, png.height);
    expect(read?.data).toBe(url);
    expect(Buffer.from(read!.binaryData).toString('latin1')).toBe(url);
  });

  it('is a PNG file', async () => {
    const png = await pngOf(LONG);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
    expect(QR_PNG_CONTENT_TYPE).toBe('image/png');
  });

  it('is square, about 512 px wide, a whole number of pixels per module', async () => {
    // LONG is a version 4 code at level M: 33 modules and 2 × 4 of quiet zone, 12 px each.
    const long = await pngOf(LONG);
    expect([long.readUInt32BE(16), long.readUInt32BE(20)]).toEqual([492, 492]);
    const png = readPng(long);
    expect([png.width, png.height]).toEqual([492, 492]);

    // SHORT is a version 3 code: 29 + 8 modules, 13 px each.
    const short = readPng(await pngOf(SHORT));
    expect([short.width, short.height]).toEqual([481, 481]);
    for (const { width } of [png, short]) {
      expect(width).toBeLessThanOrEqual(QR_PNG_TARGET_WIDTH);
      expect(width).toBeGreaterThan(QR_PNG_TARGET_WIDTH * 0.9);
    }
  });

  it('is black on white, with a white quiet zone of 4 modules', async () => {
    const png = readPng(await pngOf(LONG));
    const scale = 12;
    const colors = new Set<string>();
    for (let i = 0; i < png.data.length; i += 4) colors.add([...png.data.subarray(i, i + 4)].join(','));
    expect([...colors].sort()).toEqual(['0,0,0,255', '255,255,255,255']);

    const dark = (x: number, y: number) => png.data[(y * png.width + x) * 4] === 0;
    const quiet = 4 * scale;
    const inQuietZone = (x: number, y: number) => Math.min(x, y, png.width - 1 - x, png.height - 1 - y) < quiet;
    let darkInQuietZone = 0;
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) if (inQuietZone(x, y) && dark(x, y)) darkInQuietZone++;
    }
    expect(darkInQuietZone).toBe(0);
    // The quiet zone is exactly 4 modules: the next pixel in is the finder pattern's corner.
    expect(dark(quiet, quiet)).toBe(true);
  });
});

describe('qrCodeSvg', () => {
  it.each([SHORT, LONG, DASHED])('rasterised, reads back as exactly %s', async (url) => {
    expect(scanSvg(await qrCodeSvg(url))).toBe(url);
  });

  it('reads back even rasterised small (3 px a module)', async () => {
    expect(scanSvg(await qrCodeSvg(LONG), 3)).toBe(LONG);
  });

  it('is an SVG sized by its viewBox only, quiet zone included, black on white', async () => {
    const svg = await qrCodeSvg(LONG);
    expect(svg.trim()).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 41 41"[^>]*>.*<\/svg>$/s);
    expect(svg).not.toMatch(/<svg[^>]* width=/);
    expect(svg).toContain('fill="#ffffff" d="M0 0h41v41H0z"');
    expect(svg).toContain('stroke="#000000"');
    expect(svg).not.toMatch(/opacity/);
    expect(QR_SVG_CONTENT_TYPE).toBe('image/svg+xml; charset=utf-8');
  });
});
