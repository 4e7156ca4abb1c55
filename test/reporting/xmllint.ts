/**
 * xmllint wrappers for the reporting tests: XSD validation and XPath queries, so assertions
 * run against what a real XML parser reads, not against our own string building.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { commandAvailable, requirePeer } from '../helpers/peer.js';

/** Jenkins' JUnit schema, shared by the whole project. */
export const JUNIT_XSD = fileURLToPath(new URL('../../../shared/junit/junit-10.xsd', import.meta.url));

/**
 * Validation needs both the program and the schema, which lives in the shared folder beside
 * this repository (`../shared/junit/junit-10.xsd`); either one missing is a visible skip, or a
 * failure under CI.
 */
export const xmllint = (() => {
  const program = commandAvailable('xmllint');
  const schema = existsSync(JUNIT_XSD);
  if (program && !schema) return requirePeer('junit-10.xsd', false, `expected at ${JUNIT_XSD}, in the shared folder beside this repository`);
  return requirePeer('xmllint', program, 'apt-get install libxml2-utils');
})();

/** Validates `file` against `xsd`; `errors` holds xmllint's complaints, one per line. */
export function validate(file: string, xsd = JUNIT_XSD): { ok: boolean; errors: string[] } {
  if (!existsSync(xsd)) throw new Error(`the JUnit schema is missing: ${xsd} (it comes from the shared folder beside this repository)`);
  const r = spawnSync('xmllint', ['--noout', '--schema', xsd, file], { encoding: 'utf8' });
  const errors = r.stderr.split('\n').filter((l) => l.includes('error'));
  return { ok: r.status === 0, errors };
}

/** Evaluates an XPath expression (use `string(...)` or `count(...)`) on `file`. */
export function xpath(file: string, expr: string): string {
  const r = spawnSync('xmllint', ['--xpath', expr, file], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 10) throw new Error(`xmllint --xpath ${expr}: ${r.stderr}`);
  // xmllint ends every result with a newline of its own.
  return r.stdout.replace(/\n$/, '');
}
