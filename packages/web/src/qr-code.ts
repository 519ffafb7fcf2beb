/**
 * Shared by the gateway (a link's public images) and the merchant portal (shown inline, downloaded).
 * A payment link's address as a QR code (`/l/<slug>/qr.png` and `/l/<slug>/qr.svg`), to print or to share
 * as an image. The choices are for a code that is printed (a shop counter, a flyer) and read by any phone
 * camera:
 * - error correction M (15 %): survives a smudge, a crease or a glossy reflection, while keeping the
 *   modules large: `https://pay.example.com/l/` and a 22-character slug fit in 33 modules (version 4),
 *   where H would need 41;
 * - a quiet zone of 4 modules, as the standard asks: with less, cameras miss the code on a busy print;
 * - black on white, never inverted or tinted: the contrast every reader expects;
 * - the PNG about 512 px wide, a whole number of pixels per module (no blurred module edge when it is
 *   printed or scaled); the SVG has only a viewBox, and scales to whatever size it is printed at.
 */
import QRCode from 'qrcode';

export const QR_PNG_CONTENT_TYPE = 'image/png';
export const QR_SVG_CONTENT_TYPE = 'image/svg+xml; charset=utf-8';

/** The PNG is at most this wide, and at least this less one module's share of it. */
export const QR_PNG_TARGET_WIDTH = 512;

const ERROR_CORRECTION = 'M';
const QUIET_ZONE_MODULES = 4;
const COLOR = { dark: '#000000ff', light: '#ffffffff' };

/** The pixels per module that fill at most QR_PNG_TARGET_WIDTH, quiet zone included (at least 1). */
function pngScale(url: string): number {
  const modules = QRCode.create(url, { errorCorrectionLevel: ERROR_CORRECTION }).modules.size;
  return Math.max(1, Math.floor(QR_PNG_TARGET_WIDTH / (modules + 2 * QUIET_ZONE_MODULES)));
}

/** `url` as a square PNG QR code, about 512 px wide. */
export async function qrCodePng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, {
    type: 'png',
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: QUIET_ZONE_MODULES,
    scale: pngScale(url),
    color: COLOR,
  });
}

/** `url` as an SVG QR code: one module per user unit, sized by its viewBox only. */
export async function qrCodeSvg(url: string): Promise<string> {
  return QRCode.toString(url, {
    type: 'svg',
    errorCorrectionLevel: ERROR_CORRECTION,
    margin: QUIET_ZONE_MODULES,
    color: COLOR,
  });
}
