/** Spec A, enum `CodeGeneratorResponse.Feature`. */
export const Feature = {
  NONE: 0,
  PROTO3_OPTIONAL: 1,
} as const;

/** Bitwise OR of every value of the Feature enum this spec revision knows. */
export const KNOWN_FEATURE_MASK = 1n;
