import { Transform, type TransformCallback } from 'node:stream';
import type { ExportedTransaction } from '@mm/db/payments';
import { csvLine } from './csv-cell.js';
import { EXPORT_COLUMNS, presentExportRow } from './export-row.js';

/** decisions 8: inclusive UTC calendar dates, at most this many days from date_from to date_to. */
export const EXPORT_MAX_DAYS = 366;

export interface ExportMeta {
  date_from: string;
  date_to: string;
  country_code?: string;
}

/** How one format lays out the document: what comes first, each row, what comes last. */
export interface ExportLayout {
  head(): string;
  row(t: ExportedTransaction, index: number): string;
  tail(count: number): string;
}

/** `{"data": [rows...], "meta": {"count", "date_from", "date_to", "country_code"?}}`, the count known at the end. */
export function jsonLayout(meta: ExportMeta): ExportLayout {
  return {
    head: () => '{"data":[',
    row: (t, i) => (i === 0 ? '' : ',') + JSON.stringify(presentExportRow(t)),
    tail: (count) => `],"meta":${JSON.stringify({ count, ...meta })}}`,
  };
}

/** A header line, then one line per transaction (RFC 4180, CRLF, formula cells neutralised). */
export function csvLayout(): ExportLayout {
  return {
    head: () => csvLine(EXPORT_COLUMNS),
    row: (t) => {
      const r = presentExportRow(t);
      return csvLine(EXPORT_COLUMNS.map((c) => r[c]));
    },
    tail: () => '',
  };
}

const FLUSH_AT = 32 * 1024;

/**
 * Object-mode transactions in, document text out. Rows that arrive together (the cursor hands them
 * over a batch at a time) are sent as one chunk of up to ~32 KiB rather than one tiny write each; a
 * lone row still goes out on the next turn of the event loop. Backpressure holds: a full chunk is
 * pushed synchronously, so the transform stops taking rows while the response is not draining.
 * Nothing is pushed before the first row or the end, so a failure before that can still become a
 * proper error response.
 */
export class ExportBody extends Transform {
  private pending = '';
  private count = 0;
  private flushScheduled = false;

  constructor(private readonly layout: ExportLayout) {
    super({ writableObjectMode: true, readableHighWaterMark: 64 * 1024 });
  }

  get rows(): number {
    return this.count;
  }

  override _transform(t: ExportedTransaction, _encoding: BufferEncoding, callback: TransformCallback): void {
    try {
      if (this.count === 0) this.pending = this.layout.head();
      this.pending += this.layout.row(t, this.count);
      this.count += 1;
    } catch (err) {
      return callback(err as Error);
    }
    if (this.pending.length >= FLUSH_AT) this.flushPending();
    else if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => {
        this.flushScheduled = false;
        if (!this.destroyed) this.flushPending();
      });
    }
    callback();
  }

  override _flush(callback: TransformCallback): void {
    if (this.count === 0) this.pending = this.layout.head();
    this.pending += this.layout.tail(this.count);
    this.flushPending();
    callback();
  }

  private flushPending(): void {
    if (this.pending.length === 0) return;
    const chunk = this.pending;
    this.pending = '';
    this.push(chunk);
  }
}
