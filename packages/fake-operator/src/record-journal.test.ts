import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync, appendFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { IN_MEMORY, openRecordJournal } from './record-journal.js';
import { RecordMap } from './record-map.js';

describe("an operator's records kept in a journal of JSON lines", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'mm-records-'));
    file = path.join(dir, 'nested', 'operator.jsonl');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('restores each record as last written, in the order first written, after a reopen', () => {
    const first = openRecordJournal(file);
    const pushes = new RecordMap<{ state: string; at: Date }>(first, 'push', (p) => ({ ...p, at: new Date(p.at) }));
    pushes.set('A', { state: 'PENDING', at: new Date('2026-11-27T10:00:00Z') });
    pushes.set('B', { state: 'PENDING', at: new Date('2026-11-27T10:01:00Z') });
    pushes.set('A', { state: 'OK', at: new Date('2026-11-27T10:00:00Z') });
    new RecordMap<number>(first, 'other').set('A', 7);
    first.close();

    const again = openRecordJournal(file);
    const restored = new RecordMap<{ state: string; at: Date }>(again, 'push', (p) => ({ ...p, at: new Date(p.at) }));
    expect(restored.values()).toEqual([
      { state: 'OK', at: new Date('2026-11-27T10:00:00Z') },
      { state: 'PENDING', at: new Date('2026-11-27T10:01:00Z') },
    ]);
    expect(restored.get('A')!.at).toBeInstanceOf(Date);
    expect(new RecordMap<number>(again, 'other').get('A')).toBe(7);
    // Compacted at the open: one line per record.
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
    again.close();
  });

  it('writes each change before put returns (a process killed right after keeps it)', () => {
    const journal = openRecordJournal(file);
    journal.put('push', 'A', { state: 'OK' });
    expect(readFileSync(file, 'utf8')).toBe('{"t":"push","k":"A","v":{"state":"OK"}}\n');
    journal.close();
    journal.put('push', 'B', { state: 'OK' }); // after close: the process is stopping, nothing written, nothing thrown
    expect(readFileSync(file, 'utf8')).not.toContain('"B"');
  });

  it('a torn last line (a crash in the middle of a write) does not stop the start: it is dropped, the rest restored', () => {
    const journal = openRecordJournal(file);
    journal.put('push', 'A', { state: 'OK' });
    journal.close();
    appendFileSync(file, '{"t":"push","k":"B","v":{"sta');
    const warnings: unknown[] = [];
    const reopened = openRecordJournal(file, (event, fields) => warnings.push({ event, ...fields }));
    expect(reopened.restored('push')).toEqual([['A', { state: 'OK' }]]);
    expect(warnings).toEqual([{ event: 'records.torn_line_dropped', file, line: 2 }]);
    reopened.put('push', 'C', { state: 'OK' });
    reopened.close();
    expect(
      openRecordJournal(file)
        .restored('push')
        .map(([k]) => k),
    ).toEqual(['A', 'C']);
  });

  it('refuses to start on a damaged line that is not the last, naming the file and the line', () => {
    writeFileSync(file.replace('nested/', ''), '{"t":"push","k":"A","v":{}}\nnot json\n{"t":"push","k":"B","v":{}}\n');
    expect(() => openRecordJournal(file.replace('nested/', ''))).toThrow(/operator\.jsonl, line 2: not a record line/);
  });

  it('in memory: nothing restored, nothing written', () => {
    const pushes = new RecordMap<number>(IN_MEMORY, 'push');
    pushes.set('A', 1);
    expect(pushes.get('A')).toBe(1);
    expect(new RecordMap<number>(IN_MEMORY, 'push').values()).toEqual([]);
    expect(existsSync(file)).toBe(false);
  });
});
