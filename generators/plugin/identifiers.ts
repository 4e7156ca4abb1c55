import fc from 'fast-check';

/**
 * Name fragments for generated schema files. They are valid identifiers (letters, digits,
 * underscores, not starting with a digit) and are made unique per scope later, when a plan is
 * turned into descriptors. The word lists mix plain words with names that code generators
 * commonly have to escape (target-language keywords, names of runtime types), because a
 * plugin must cope with both (spec A: a plugin generates code for any valid request).
 *
 * Casing keeps kinds apart so that a package can never be mistaken for a message: packages and
 * fields are lower case, messages, enums, services and methods start with a capital letter,
 * enum values are upper case.
 */

const WORDS = [
  'item', 'user', 'order', 'value', 'data', 'info', 'status', 'node', 'entry', 'list',
  'map', 'key', 'name', 'id', 'size', 'type', 'kind', 'state', 'result', 'request',
];
const KEYWORDS = [
  'class', 'default', 'string', 'package', 'import', 'public', 'new', 'delete', 'this',
  'self', 'func', 'async', 'await', 'yield', 'in', 'of', 'case', 'select', 'interface',
  'private', 'object', 'descriptor', 'extensions', 'oneof', 'bytes', 'struct', 'go', 'len',
];
const TYPE_WORDS = [
  'Object', 'String', 'Type', 'Class', 'Message', 'Descriptor', 'Enum', 'Service', 'Builder',
  'Map', 'List', 'Any', 'Error', 'Promise', 'Reader', 'Writer', 'Default', 'Int32',
];

/** lower_snake_case with optional digits, a leading underscore, or a doubled underscore. */
export const fieldNameFragment: fc.Arbitrary<string> = fc
  .record({
    words: fc.array(fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...WORDS) }, { weight: 1, arbitrary: fc.constantFrom(...KEYWORDS) }), { minLength: 1, maxLength: 3 }),
    digits: fc.option(fc.nat({ max: 99 }), { freq: 4 }),
    style: fc.constantFrom('plain', 'plain', 'plain', 'lead_underscore', 'double_underscore', 'camel'),
  })
  .map(({ words, digits, style }) => {
    let name = style === 'double_underscore' ? words.join('__') : words.join('_');
    if (style === 'camel') name = words.map((w, i) => (i === 0 ? w : w.charAt(0).toUpperCase() + w.slice(1))).join('');
    if (digits !== null) name += style === 'plain' ? `_${digits}` : String(digits);
    return style === 'lead_underscore' ? `_${name}` : name;
  });

/** PascalCase type names (messages, enums, services, methods). */
export const typeNameFragment: fc.Arbitrary<string> = fc
  .record({
    words: fc.array(fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...WORDS).map(capitalize) }, { weight: 1, arbitrary: fc.constantFrom(...TYPE_WORDS) }), { minLength: 1, maxLength: 2 }),
    digits: fc.option(fc.nat({ max: 9 }), { freq: 5 }),
    underscore: fc.boolean(),
  })
  .map(({ words, digits, underscore }) => words.join(underscore ? '_' : '') + (digits === null ? '' : String(digits)));

/** UPPER_SNAKE_CASE enum value names. */
export const enumValueNameFragment: fc.Arbitrary<string> = fc
  .record({
    words: fc.array(fc.constantFrom(...WORDS, ...KEYWORDS.slice(0, 6)), { minLength: 1, maxLength: 2 }),
    digits: fc.option(fc.nat({ max: 9 }), { freq: 4 }),
  })
  .map(({ words, digits }) => words.join('_').toUpperCase() + (digits === null ? '' : `_${digits}`));

/**
 * Package segments from a small pool, so that several files of one set often share a package
 * (and with it one symbol scope, where name clashes across files must be avoided).
 */
export const packageSegments: fc.Arbitrary<string[]> = fc.array(fc.constantFrom('acme', 'api', 'v1', 'foo', 'bar', 'x_y', 'pkg2', 'internal'), { minLength: 1, maxLength: 3 });

/** A relative `.proto` path: zero to two folders and a base name. */
export const protoPathFragment: fc.Arbitrary<{ dirs: string[]; base: string }> = fc.record({
  dirs: fc.array(fc.constantFrom('proto', 'api', 'v1', 'common', 'a_b', 'x'), { maxLength: 2 }),
  base: fc.constantFrom('main', 'types', 'service', 'common', 'extra', 'model', 'util_2'),
});

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}
