import { readFileSync } from 'node:fs';
import { generatedTypes } from '../scripts/generated-types.js';

it('the committed types are those of the current OpenAPI document (run `pnpm --filter @mm/sdk generate` after changing it)', async () => {
  const committed = readFileSync(new URL('./generated/api.ts', import.meta.url), 'utf8');
  expect(committed).toBe(await generatedTypes());
});
