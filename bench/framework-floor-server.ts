/**
 * The framework floor (issue 7): the ceiling's two routes and statements (support/ceiling-sql.ts)
 * served by Express 5, the gateway's framework, with nothing else: no authentication, validation, rate
 * limit or logging. Its ratio to the ceiling is what Express alone leaves of it, the most any Express
 * route doing that database work can reach on this machine. It prints its URL on stdout.
 */
import express from 'express';
import { ceilingPool, createCeilingTable, insertRow, selectRow, type CeilingBody } from './support/ceiling-sql.js';

const pool = ceilingPool();
await createCeilingTable(pool);

const app = express();
// Less than the gateway does, never more (it also hashes each answer into an ETag): a floor, not a model.
app.disable('x-powered-by');
app.set('etag', false);
app.post('/rows', express.json(), async (req, res) => {
  res.status(202).json({ data: { id: await insertRow(pool, req.body as CeilingBody), status: 'PENDING' } });
});
app.get('/rows/:id', async (req, res) => {
  const row = await selectRow(pool, req.params.id);
  if (row) res.json({ data: row });
  else res.status(404).json({ error: 'not found' });
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => void pool.end()));
