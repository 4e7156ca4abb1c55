import type { RuleKey } from './rules.js';

/** Why a `CodeGeneratorResponse.File.name` breaks spec A, Rules for File, rule 1. */
export interface NameProblem {
  rule: RuleKey;
  message: string;
}

/**
 * Checks one file name against spec A, Rules for File, rule 1 ("`name` must be relative, must
 * not contain `.` or `..` components, and uses `/` as separator (never a backslash). The file
 * cannot lie outside the output directory.").
 *
 * Decisions where the rule is silent (see suites/plugin/FINDINGS.md):
 * - absolute means a leading `/` or a drive prefix such as `C:/`;
 * - a trailing `/` names a directory, not a file, so it is not a name relative to the output
 *   directory either;
 * - empty components inside the name (`a//b`) are accepted, as protoc accepts them; they are
 *   kept literally (the tree key is `a//b`, which the file system reads as `a/b`).
 * The empty name is not checked here: it means "omitted" (rule 2).
 */
export function checkFileName(name: string): NameProblem | undefined {
  if (name.includes('\\')) {
    return { rule: 'nameSeparator', message: `file name ${JSON.stringify(name)} contains a backslash; the separator is "/"` };
  }
  if (name.startsWith('/') || /^[A-Za-z]:\//.test(name)) {
    return { rule: 'nameRelative', message: `file name ${JSON.stringify(name)} is absolute; it must be relative to the output directory` };
  }
  const parts = name.split('/');
  const dot = parts.find((p) => p === '.' || p === '..');
  if (dot !== undefined) {
    return { rule: 'nameDotComponents', message: `file name ${JSON.stringify(name)} has a "${dot}" component` };
  }
  if (name.endsWith('/')) {
    return { rule: 'nameRelative', message: `file name ${JSON.stringify(name)} ends with "/", so it names a directory, not a file` };
  }
  return undefined;
}

/** The path a file system makes of a valid name: empty components collapse (`a//b` is `a/b`). */
export function diskPath(name: string): string {
  return name.split('/').filter((p) => p !== '').join('/');
}
