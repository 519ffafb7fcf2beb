import { openApiDocument } from '@mm/openapi';
import openapiTS, { astToString } from 'openapi-typescript';

const HEADER =
  '// Generated from the OpenAPI document (@mm/openapi) by `pnpm --filter @mm/sdk generate`. Do not edit.\n/* eslint-disable */\n';

/** The TypeScript types of the document, as openapi-typescript writes them. */
export async function generatedTypes(): Promise<string> {
  const ast = await openapiTS(structuredClone(openApiDocument) as Parameters<typeof openapiTS>[0], {
    alphabetize: false,
    exportType: false,
  });
  return HEADER + astToString(ast);
}
