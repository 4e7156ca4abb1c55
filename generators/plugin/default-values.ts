import { FieldType, type FieldTypeNumber } from './descriptor-types.js';

/**
 * proto2 default values, written exactly as the compiler writes `defaultValue` into a
 * descriptor: integers in decimal, floating point as the shortest round-trip text with
 * `inf`/`-inf`/`nan`, bools as `true`/`false`, strings raw, bytes C-escaped, enums by value name.
 */
const DEFAULTS: Partial<Record<FieldTypeNumber, readonly string[]>> = {
  [FieldType.INT32]: ['0', '-1', '42', '2147483647', '-2147483648'],
  [FieldType.SINT32]: ['0', '-7', '2147483647'],
  [FieldType.SFIXED32]: ['0', '-2147483648', '5'],
  [FieldType.INT64]: ['0', '-5', '9223372036854775807', '-9223372036854775808'],
  [FieldType.SINT64]: ['0', '-9223372036854775808', '123'],
  [FieldType.SFIXED64]: ['0', '9223372036854775807'],
  [FieldType.UINT32]: ['0', '7', '4294967295'],
  [FieldType.FIXED32]: ['0', '4294967295'],
  [FieldType.UINT64]: ['0', '18446744073709551615'],
  [FieldType.FIXED64]: ['0', '1', '18446744073709551615'],
  [FieldType.BOOL]: ['true', 'false'],
  [FieldType.STRING]: ['', 'hello', 'two words', 'caf\u00e9', 'quote"d'],
  [FieldType.BYTES]: ['', 'abc', 'a\\001b', '\\377\\000'],
  [FieldType.DOUBLE]: ['0', '1.5', '-2.25', 'inf', '-inf', 'nan', '1e+30'],
  [FieldType.FLOAT]: ['0', '0.5', '-3', 'inf', '-inf', 'nan'],
};

/** The default for a scalar field chosen by `pick`, or undefined when the type has none. */
export function scalarDefault(type: FieldTypeNumber, pick: number): string | undefined {
  const options = DEFAULTS[type];
  if (!options || options.length === 0) return undefined;
  return options[pick % options.length];
}
