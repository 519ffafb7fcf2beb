/**
 * The enrolment's QR code, drawn on the server as SVG (no script, no image request carrying the key):
 * qrcode writes only its own path data, so its output is inserted as is.
 */
import QRCode from 'qrcode';
import { html, raw, type SafeHtml } from '@mm/web';

export async function qrSvg(text: string, label: string): Promise<SafeHtml> {
  const svg = await QRCode.toString(text, { type: 'svg', margin: 4, width: 220, errorCorrectionLevel: 'M' });
  return html`<div class="card" id="totp-qr" role="img" aria-label="${label}">${raw(svg.trim())}</div>`;
}
