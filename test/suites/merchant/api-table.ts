/**
 * The merchant route table (suites/merchant/api.yaml) read as raw YAML, without the engine's API
 * loader: these tests judge the data as written, whatever the loader later makes of it.
 */
import { readFileSync } from 'node:fs';
import { SpecgateError } from '../../../src/errors.js';
import { parseYaml, formatLocation, type YamlSource } from '../../../src/engine/loader/yaml-source.js';
import { fromRoot } from '../../../src/paths.js';

export const API_YAML = fromRoot('suites', 'merchant', 'api.yaml');

/** One operation of the table, reduced to what routing depends on. */
export interface TableOperation {
  /** Position in the table, from 1. */
  index: number;
  /** Where it is written (`file:line:column`), for messages. */
  at: string;
  id: string;
  method: string;
  path: string;
  /** Every path parameter: the `{name}`s of the template and any `parameters` entry with `in: path`. */
  pathParams: string[];
  /** Query parameters the table marks required. */
  requiredQuery: string[];
  /** Path parameters listed under `parameters` that the template does not contain (a table defect). */
  strayPathParams: string[];
}

export interface ApiTable {
  base: string;
  operations: TableOperation[];
}

/** Reads api.yaml with the project's YAML parser; a syntax error is thrown as the parser reports it. */
export function readApiTable(file: string = API_YAML): ApiTable {
  return apiTableFrom(parseYaml(file, readFileSync(file, 'utf8')));
}

/** `{name}` parameters of a path template, in order of appearance. */
export function templateParams(path: string): string[] {
  return [...path.matchAll(/\{([^{}]+)\}/g)].map((m) => m[1] ?? '');
}

function apiTableFrom(src: YamlSource): ApiTable {
  const doc = src.data;
  if (!isRecord(doc)) throw shapeError(src, [], 'the table is not a mapping');
  const base = doc.base;
  if (typeof base !== 'string') throw shapeError(src, ['base'], '`base` is not a string');
  const ops = doc.operations;
  if (!Array.isArray(ops)) throw shapeError(src, ['operations'], '`operations` is not a list');
  const operations = ops.map((op: unknown, i): TableOperation => {
    if (!isRecord(op)) throw shapeError(src, ['operations', i], `operation #${i + 1} is not a mapping`);
    const { id, method, path } = op;
    if (typeof id !== 'string' || typeof method !== 'string' || typeof path !== 'string') {
      throw shapeError(src, ['operations', i], `operation #${i + 1} lacks a string id, method or path`);
    }
    const inTemplate = templateParams(path);
    const listed = Array.isArray(op.parameters) ? op.parameters.filter(isRecord) : [];
    const listedPath = listed.filter((p) => p.in === 'path' && typeof p.name === 'string').map((p) => String(p.name));
    const requiredQuery = listed.filter((p) => p.in === 'query' && p.required === true && typeof p.name === 'string').map((p) => String(p.name));
    return {
      index: i + 1,
      at: formatLocation(src.locate(['operations', i])),
      id,
      method,
      path,
      pathParams: [...new Set([...inTemplate, ...listedPath])],
      requiredQuery,
      strayPathParams: listedPath.filter((p) => !inTemplate.includes(p)),
    };
  });
  return { base, operations };
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function shapeError(src: YamlSource, path: (string | number)[], what: string): SpecgateError {
  return new SpecgateError('SG_SUITE_SCHEMA', `${formatLocation(src.locate(path))}: ${what}`);
}
