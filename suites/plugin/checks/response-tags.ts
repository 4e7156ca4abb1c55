import { splitFields } from '../../../reference/plugin/wire.js';

/**
 * Where the schema puts the fields of a response (spec A, CodeGeneratorResponse and
 * CodeGeneratorResponse.File): tag -> wire type. A decoder skips fields under other tags, so a
 * plugin that writes its files, or their content, under a tag of its own would be read as an
 * empty answer; the plugin suite reports such fields instead of accepting that silently.
 */
const RESPONSE_TAGS: Readonly<Record<number, number>> = { 1: 2, 2: 0, 15: 2 };
const FILE_TAGS: Readonly<Record<number, number>> = { 1: 2, 2: 2, 15: 2, 16: 2 };
const FILE_FIELD = 15;
const WIRE_TYPE_NAMES = ['varint', '64-bit', 'length-delimited', 'start group', 'end group', '32-bit'];

/**
 * The fields of an encoded CodeGeneratorResponse (and of each File in it) under tags the schema
 * does not define, described for a report; empty when every field is where the schema puts it.
 * The bytes are assumed to have decoded already (a malformed answer is judged before this).
 */
export function unknownResponseTags(bytes: Uint8Array): string[] {
  const found: string[] = [];
  let fileIndex = 0;
  for (const f of splitFields(bytes)) {
    if (RESPONSE_TAGS[f.field] === undefined) {
      found.push(`CodeGeneratorResponse field ${f.field} (${WIRE_TYPE_NAMES[f.wireType] ?? `wire type ${f.wireType}`}): the schema has no such field (error is 1, supported_features 2, file 15)`);
      continue;
    }
    if (f.field !== FILE_FIELD || f.wireType !== 2) continue;
    for (const g of splitFields(payloadOf(f.bytes))) {
      if (FILE_TAGS[g.field] === undefined) {
        found.push(`file[${fileIndex}] field ${g.field} (${WIRE_TYPE_NAMES[g.wireType] ?? `wire type ${g.wireType}`}): File has no such field (name is 1, insertion_point 2, content 15, generated_code_info 16)`);
      }
    }
    fileIndex++;
  }
  return found;
}

/** The payload of one length-delimited field: the bytes after its tag and length varints. */
function payloadOf(field: Uint8Array): Uint8Array {
  let pos = 0;
  while ((field[pos] ?? 0) & 0x80) pos++;
  pos++;
  while ((field[pos] ?? 0) & 0x80) pos++;
  pos++;
  return field.subarray(pos);
}
