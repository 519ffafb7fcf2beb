import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '@mm/testing/test-database';

// The wasm schema parser is CommonJS; it is the same DMMF the Prisma CLI computes.
const { get_dmmf } = createRequire(import.meta.url)('@prisma/prisma-schema-wasm') as { get_dmmf(p: string): string };

interface DmmfField {
  name: string;
  dbName: string | null;
  kind: string;
  type: string;
  isRequired: boolean;
  isList: boolean;
  nativeType: [string, string[]] | null;
}
interface DmmfModel {
  name: string;
  dbName: string | null;
  fields: DmmfField[];
}

const SCHEMA = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../prisma/schema.prisma');

// How a Prisma scalar (with its @db native type, when given) appears in information_schema.
function expectedSqlType(f: DmmfField): string {
  // information_schema names every array type ARRAY (a String[] is text[]).
  if (f.isList) return 'ARRAY';
  if (f.nativeType) {
    const [nt] = f.nativeType;
    const byNative: Record<string, string> = {
      Uuid: 'uuid',
      Timestamptz: 'timestamp with time zone',
      Text: 'text',
      Date: 'date',
    };
    return byNative[nt] ?? `unmapped native type ${nt}`;
  }
  const byScalar: Record<string, string> = {
    String: 'text',
    Int: 'integer',
    BigInt: 'bigint',
    Boolean: 'boolean',
    Json: 'jsonb',
    DateTime: 'timestamp without time zone',
  };
  return byScalar[f.type] ?? `unmapped scalar ${f.type}`;
}

describe('schema.prisma against the migrated database', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db.drop();
  });

  it('declares exactly the tables and columns the migrations create, with the same types and nullability', async () => {
    const dmmf = JSON.parse(get_dmmf(JSON.stringify({ prismaSchema: await readFile(SCHEMA, 'utf8') })));
    const fromSchema = new Map<string, string>();
    for (const model of dmmf.datamodel.models as DmmfModel[]) {
      for (const f of model.fields.filter((x) => x.kind === 'scalar')) {
        fromSchema.set(
          `${model.dbName ?? model.name}.${f.dbName ?? f.name}`,
          `${expectedSqlType(f)} ${f.isRequired ? 'NOT NULL' : 'NULL'}`,
        );
      }
    }

    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    const { rows } = await client.query<{
      table_name: string;
      column_name: string;
      data_type: string;
      is_nullable: string;
    }>(
      `SELECT table_name, column_name, data_type, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'`,
    );
    await client.end();
    const fromDatabase = new Map(
      rows.map((r) => [
        `${r.table_name}.${r.column_name}`,
        `${r.data_type} ${r.is_nullable === 'YES' ? 'NULL' : 'NOT NULL'}`,
      ]),
    );

    expect(Object.fromEntries([...fromSchema].sort())).toEqual(Object.fromEntries([...fromDatabase].sort()));
  });
});
