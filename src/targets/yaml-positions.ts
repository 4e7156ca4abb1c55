import type { ErrorObject } from 'ajv';
import { isMap, isNode, isPair, isScalar, type Document, type LineCounter, type Node } from 'yaml';
import type { SourceLocation } from '../engine/model.js';
import { SpecgateError } from '../errors.js';

/** A parsed YAML file with what it takes to turn a node into `file:line:column`. */
export interface PositionedDoc {
  file: string;
  doc: Document;
  lines: LineCounter;
}

/** `file:line:column` of a node (or of the file start when the node has no range). */
export function locationOf(src: PositionedDoc, node: unknown): SourceLocation {
  const offset = isNode(node) && node.range ? node.range[0] : 0;
  const { line, col } = src.lines.linePos(offset);
  return { file: src.file, line, column: col };
}

export function formatLocation(loc: SourceLocation): string {
  return `${loc.file}:${loc.line}:${loc.column}`;
}

/** The key node of `name` inside a YAML map, so that an unknown property points at its own line. */
export function keyNode(map: unknown, name: string): Node | undefined {
  if (!isMap(map)) return undefined;
  for (const pair of map.items) {
    if (isPair(pair) && isScalar(pair.key) && String(pair.key.value) === name) return pair.key;
  }
  return undefined;
}

function pathSegments(instancePath: string): string[] {
  if (instancePath === '') return [];
  return instancePath.slice(1).split('/').map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** One ajv error as "where: what rule was broken", positioned on the offending node. */
function describe(src: PositionedDoc, err: ErrorObject): SpecgateError {
  const segments = pathSegments(err.instancePath);
  let node: unknown = segments.length ? src.doc.getIn(segments, true) : src.doc.contents;
  const subject = segments.join('.') || 'the profile';
  const params = err.params as Record<string, unknown>;
  let rule = err.message ?? err.keyword;
  if (err.keyword === 'additionalProperties' && typeof params.additionalProperty === 'string') {
    node = keyNode(node, params.additionalProperty) ?? node;
    rule = `has an unknown property "${params.additionalProperty}"`;
  } else if (err.keyword === 'propertyNames' && typeof params.propertyName === 'string') {
    node = keyNode(node, params.propertyName) ?? node;
    rule = `has an invalid name "${params.propertyName}"`;
  } else if (err.keyword === 'enum' && Array.isArray(params.allowedValues)) {
    rule = `must be one of: ${params.allowedValues.map(String).join(', ')}`;
  }
  const loc = locationOf(src, node);
  return new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: ${subject} ${rule}`, { ...loc, keyword: err.keyword, schemaPath: err.schemaPath });
}

/**
 * Turns ajv's errors into positioned SG_CONFIG errors. `if` errors only repeat the `then`
 * error beside them, and propertyNames reports each bad name twice: both are dropped.
 */
export function schemaErrors(src: PositionedDoc, errors: readonly ErrorObject[]): SpecgateError[] {
  const seen = new Set<string>();
  const out: SpecgateError[] = [];
  for (const err of errors) {
    if (err.keyword === 'if') continue;
    const e = describe(src, err);
    if (seen.has(e.message)) continue;
    seen.add(e.message);
    out.push(e);
  }
  return out;
}

/** YAML syntax errors (bad indentation, duplicate keys, ...) as positioned SG_CONFIG errors. */
export function syntaxErrors(src: PositionedDoc): SpecgateError[] {
  return src.doc.errors.map((err) => {
    const pos = err.linePos?.[0] ?? src.lines.linePos(err.pos[0]);
    const loc = { file: src.file, line: pos.line, column: pos.col };
    // prettyErrors appends "at line N, column M:" and a code excerpt; the prefix already says where.
    const firstLine = (err.message.split('\n')[0] ?? err.message).replace(/ at line \d+, column \d+:?$/, '');
    return new SpecgateError('SG_CONFIG', `${formatLocation(loc)}: ${firstLine}`, { ...loc, yamlCode: err.code });
  });
}
