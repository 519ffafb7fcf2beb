export { createDb, type Db, type Tx, type DbOptions } from './client.js';
export { Prisma } from './generated/prisma/client.js';
