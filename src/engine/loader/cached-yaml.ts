import { SpecgateErrorList } from '../../errors.js';
import { cacheGet, cachePut } from './parse-cache.js';
import { schemaErrors, schemaText, type SchemaName } from './schema-check.js';
import { parseYaml, type YamlSource } from './yaml-source.js';

/** A parsed suite file the caller tells when it has loaded without problems. */
export interface CachedSource extends YamlSource {
  /** The file loaded cleanly: keep its data and every position the loader asked for. */
  remember(): void;
}

/**
 * Reads a suite file that is loaded whole on every run (suite.yaml, api.yaml) through the parse
 * cache. The first load parses with positions, checks the schema, and records each position
 * the loader asks for; `remember()` stores the data with those positions. A later load of the
 * same text gets the data without parsing and answers the same positions from the record; only
 * a position never asked for before (an error message) parses the file again.
 */
export function readCachedYaml(file: string, text: string, schema: SchemaName): CachedSource {
  const fingerprint = `located\0${schemaText(schema)}`;
  const hit = cacheGet(text, fingerprint);
  if (hit?.located) {
    const located = hit.located;
    let full: YamlSource | undefined;
    const parsed = (): YamlSource => (full ??= parseYaml(file, text));
    return {
      file,
      data: hit.data,
      locate: (path) => {
        const at = located[JSON.stringify(path)];
        // the same content may sit in another file, or be named from another folder: keep only the position
        return at ? { file, line: at[0], column: at[1] } : parsed().locate(path);
      },
      locateKey: (path) => parsed().locateKey?.(path) ?? parsed().locate(path),
      remember: () => undefined,
    };
  }
  const src = parseYaml(file, text);
  const found = schemaErrors(src, schema, 'SG_SUITE_SCHEMA');
  if (found.length) throw new SpecgateErrorList(found);
  const seen: Record<string, [number, number]> = {};
  return {
    file,
    data: src.data,
    locate: (path) => {
      const at = src.locate(path);
      seen[JSON.stringify(path)] = [at.line, at.column];
      return at;
    },
    ...(src.locateKey ? { locateKey: src.locateKey } : {}),
    remember: () => cachePut(text, fingerprint, { data: src.data, items: [], located: seen }),
  };
}
