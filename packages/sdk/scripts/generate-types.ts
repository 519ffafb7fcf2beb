// Writes src/generated/api.ts, the types of every request, answer and webhook, from the OpenAPI document
// (@mm/openapi). Run it after changing the document: `pnpm --filter @mm/sdk generate`; a test fails while
// the committed file and the document disagree.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedTypes } from './generated-types.js';

const target = fileURLToPath(new URL('../src/generated/api.ts', import.meta.url));
writeFileSync(target, await generatedTypes());
console.log(`wrote ${target}`);
