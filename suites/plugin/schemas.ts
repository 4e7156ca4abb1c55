/**
 * JSON Schema of a decoded CodeGeneratorResponse (spec A, CodeGeneratorResponse and File), for
 * `$schema: plugin/response` in expectations: only the spec's fields, with their types.
 */
export const responseSchema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    error: { type: 'string' },
    supported_features: { anyOf: [{ type: 'integer', minimum: 0 }, { type: 'string', pattern: '^[0-9]+$' }] },
    file: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          insertion_point: { type: 'string' },
          content: { type: 'string' },
          generated_code_info: { type: 'object' },
        },
      },
    },
  },
} as const;
