/**
 * The ceiling (issue 7): the least a server can do for a cash-in or a status read on this machine. A
 * bare node:http server with a pg pool the size of a service's (DB_POOL_SIZE, 10): POST /rows parses
 * the JSON body and does one INSERT (autocommit, so one COMMIT) per request; GET /rows/:id does one
 * SELECT by primary key. No framework, no validation, no logging. It prints its URL on stdout.
 */
import { createServer } from 'node:http';
import { ceilingPool, createCeilingTable, insertRow, selectRow, type CeilingBody } from './support/ceiling-sql.js';

const pool = ceilingPool();
await createCeilingTable(pool);

const server = createServer((req, res) => {
  const answer = (status: number, body: unknown) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const fail = (err: unknown) => answer(500, { error: String(err) });
  if (req.method === 'POST' && req.url === '/rows') {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const b = JSON.parse(Buffer.concat(chunks).toString()) as CeilingBody;
      insertRow(pool, b).then((id) => answer(202, { data: { id, status: 'PENDING' } }), fail);
    });
    return;
  }
  const read = /^\/rows\/([0-9a-f-]{36})$/.exec(req.url ?? '');
  if (req.method === 'GET' && read) {
    selectRow(pool, read[1]!).then(
      (row) => (row ? answer(200, { data: row }) : answer(404, { error: 'not found' })),
      fail,
    );
    return;
  }
  answer(404, { error: 'not found' });
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => void pool.end()));
