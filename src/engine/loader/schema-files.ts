import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SpecgateError } from '../../errors.js';

/**
 * The response and body schemas a suite keeps as files: `suites/<suite>/schemas/<name>.json`,
 * known to cases as `<suite>/<name>` (`expect.schema`, `$schema`). A file that is not JSON is a
 * load error naming it.
 */
export function loadSchemaFiles(dir: string, display: (file: string) => string, errors: SpecgateError[]): Record<string, object> {
  const root = join(dir, 'schemas');
  if (!existsSync(root)) return {};
  const out: Record<string, object> = {};
  for (const name of readdirSync(root).sort()) {
    if (!name.endsWith('.json')) continue;
    const file = join(root, name);
    let schema: unknown;
    try {
      schema = JSON.parse(readFileSync(file, 'utf8'));
    } catch (e) {
      errors.push(new SpecgateError('SG_SUITE_SYNTAX', `${display(file)}: not JSON (${(e as Error).message}); fix the file or remove it`));
      continue;
    }
    if (schema && typeof schema === 'object' && !Array.isArray(schema)) out[name.slice(0, -'.json'.length)] = schema;
    else errors.push(new SpecgateError('SG_SUITE_SCHEMA', `${display(file)}: a JSON Schema is an object; fix the file or remove it`));
  }
  return out;
}
