import pg from 'pg';
import { Prisma } from '../generated/prisma/client.js';

interface UniqueViolationCause {
  kind?: unknown;
  constraint?: { index?: unknown };
}

/**
 * The name of the unique index a failed statement violated, null for any other failure: for a table
 * with several unique rules, which one refused the row. The driver adapter names it in the cause of a
 * model query's P2002 and of a raw statement's P2010 alike.
 */
export function violatedUniqueIndex(err: unknown): string | null {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError)) return null;
  const cause = (err.meta?.driverAdapterError as { cause?: UniqueViolationCause } | undefined)?.cause;
  if (cause?.kind !== 'UniqueConstraintViolation') return null;
  return typeof cause.constraint?.index === 'string' ? cause.constraint.index : null;
}

/**
 * P2002 from a model query; a raw statement's arrives as P2010 with PostgreSQL's own code (23505), or
 * as pg's own error from a pg transaction (runPgTransaction).
 */
export function isUniqueViolation(err: unknown): boolean {
  if (err instanceof pg.DatabaseError) return err.code === '23505';
  if (!(err instanceof Prisma.PrismaClientKnownRequestError)) return false;
  const cause = (err.meta?.driverAdapterError as { cause?: { originalCode?: unknown } } | undefined)?.cause;
  return err.code === 'P2002' || (err.code === 'P2010' && cause?.originalCode === '23505');
}
