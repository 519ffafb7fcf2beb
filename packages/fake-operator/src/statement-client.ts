import type { PlantedChange, UnknownRecordChange } from './statement.js';

/** A line of a mock's CSV statement, as a reconciliation reads it (tests). */
export interface StatementRow {
  kind: string;
  reference: string;
  operator_tx_id: string;
  amount: string;
  currency: string;
  status: string;
  occurred_at: string;
}

export const today = (): string => new Date().toISOString().slice(0, 10);

/** Splits one CSV line (RFC 4180 quoting). */
function fields(line: string): string[] {
  const out: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted && c === '"' && line[i + 1] === '"') {
      field += '"';
      i++;
    } else if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) {
      out.push(field);
      field = '';
    } else field += c;
  }
  return [...out, field];
}

/** GET <controlBase>/statement?date=, parsed by its header (`controlBase`: a mock's `/_mock`, the simulator's `/sandbox`). */
export async function statementOf(
  controlBase: string,
  date = today(),
  headers: Record<string, string> = {},
): Promise<{ status: number; contentType: string | null; rows: StatementRow[]; text: string }> {
  const res = await fetch(`${controlBase}/statement?date=${encodeURIComponent(date)}`, { headers });
  const text = await res.text();
  const [header, ...lines] = text.split('\r\n').filter((l) => l !== '');
  const names = header ? fields(header) : [];
  const rows =
    res.status === 200
      ? lines.map(
          (l) => Object.fromEntries(fields(l).map((v, i) => [names[i] ?? String(i), v])) as unknown as StatementRow,
        )
      : [];
  return { status: res.status, contentType: res.headers.get('content-type'), rows, text };
}

/** POST <controlBase>/plant {reference, change}: the answer's status (204 when planted). */
export async function plant(
  controlBase: string,
  reference: string,
  change: PlantedChange | UnknownRecordChange | Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<number> {
  const res = await fetch(`${controlBase}/plant`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body: JSON.stringify({ reference, change }),
  });
  await res.arrayBuffer();
  return res.status;
}
