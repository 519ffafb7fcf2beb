import type { MediaTypeObject, RequestBodyObject } from 'openapi3-ts/oas31';

const ref = (schema: string) => ({ $ref: `#/components/schemas/${schema}` });

/** `{"data": <schema>}`, the envelope of every successful answer. */
export function dataOf(schema: string, array = false): Record<string, MediaTypeObject> {
  return {
    'application/json': {
      schema: {
        type: 'object', additionalProperties: false, required: ['data'],
        properties: { data: array ? { type: 'array', items: ref(schema) } : ref(schema) },
      },
    },
  };
}

export function jsonBody(schema: string): RequestBodyObject {
  return { required: true, content: { 'application/json': { schema: ref(schema) } } };
}
