import {
  closeSync,
  existsSync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';

/**
 * Where an operator (the simulator, a contract mock) keeps its records: in memory only, or also in a file, so a
 * restart keeps them as a real operator's books do. A reconciliation of a day on which the process restarted then
 * finds at the operator every payment the earlier run handled.
 */
export interface RecordJournal {
  /** The records of one type as last written, in the order they were first written. */
  restored(type: string): [key: string, value: unknown][];
  /** Writes the record's new state before returning. */
  put(type: string, key: string, value: unknown): void;
  close(): void;
}

/** Records in memory only (OPERATOR_RECORDS_DIR unset, and tests): a restart forgets them. */
export const IN_MEMORY: RecordJournal = { restored: () => [], put: () => undefined, close: () => undefined };

interface Line {
  t: string;
  k: string;
  v: unknown;
}

const isLine = (x: unknown): x is Line =>
  typeof x === 'object' &&
  x !== null &&
  typeof (x as Line).t === 'string' &&
  typeof (x as Line).k === 'string' &&
  'v' in x;

/** The file's records, the last state of each; a torn last line (a crash in the middle of a write) is left out. */
function replay(
  file: string,
  warn: (event: string, fields: Record<string, unknown>) => void,
): Map<string, Map<string, unknown>> {
  const byType = new Map<string, Map<string, unknown>>();
  if (!existsSync(file)) return byType;
  const lines = readFileSync(file, 'utf8').split('\n');
  const last = lines.findLastIndex((l) => l.trim() !== '');
  lines.forEach((text, i) => {
    if (text.trim() === '') return;
    let line: unknown;
    try {
      line = JSON.parse(text);
    } catch {
      line = undefined;
    }
    if (!isLine(line)) {
      if (i === last) {
        warn('records.torn_line_dropped', { file, line: i + 1 });
        return;
      }
      throw new Error(
        `${file}, line ${i + 1}: not a record line; the file was changed by something else than the operator (move it away to start with no records)`,
      );
    }
    const records = byType.get(line.t) ?? new Map<string, unknown>();
    records.set(line.k, line.v);
    byType.set(line.t, records);
  });
  return byType;
}

const lineOf = (t: string, k: string, v: unknown) => `${JSON.stringify({ t, k, v })}\n`;

/**
 * One operator's records in a file of JSON lines `{"t": type, "k": key, "v": record}`, one line per change, the
 * last line of a key its current state. Opening replays it, then rewrites it with one line per record (through a
 * file renamed over it, so a crash while compacting loses nothing); every put is written and flushed to the disk
 * before it returns. One process per file.
 */
export function openRecordJournal(
  file: string,
  warn: (event: string, fields: Record<string, unknown>) => void = () => undefined,
): RecordJournal {
  mkdirSync(path.dirname(file), { recursive: true });
  const byType = replay(file, warn);
  const compacted = `${file}.compacting`;
  const out = openSync(compacted, 'w');
  for (const [t, records] of byType) for (const [k, v] of records) writeSync(out, lineOf(t, k, v));
  fdatasyncSync(out);
  closeSync(out);
  renameSync(compacted, file);

  let fd: number | null = openSync(file, 'a');
  return {
    restored: (type) => [...(byType.get(type) ?? new Map<string, unknown>())],
    put: (type, key, value) => {
      // A change after close (a request finishing during shutdown) is not written: the process is stopping.
      if (fd === null) return;
      writeSync(fd, lineOf(type, key, value));
      fdatasyncSync(fd);
    },
    close: () => {
      if (fd !== null) closeSync(fd);
      fd = null;
    },
  };
}
