import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { invalidCollationDocument, validCollationDocument } from '../../generators/collation/collation-document.js';
import { collationString } from '../../generators/collation/collation-string.js';
import { collationReferenceTarget } from '../../reference/collation/store/reference-target.js';
import { agreesCheck } from './checks/agrees.js';
import { documentsCheck } from './checks/documents.js';
import { indexKindCheck } from './checks/index-kind.js';
import { matchesCheck } from './checks/matches.js';
import { namespaceCheck } from './checks/namespace.js';
import { planCheck } from './checks/plan.js';
import { sortsCheck } from './checks/sorts.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]collation$/, '$1suites$1collation');
}

/**
 * String collation of a document database (spec 001, part F). The comparator rules (locale,
 * strength, caseLevel, caseFirst, numericOrdering, alternate, maxVariable, backwards,
 * normalization) are judged on any target that sorts and matches strings — a document database
 * through its commands, or PostgreSQL through ICU collations — with fixed word lists and with
 * generated strings against the reference comparator; the document, operation, bulk-write, view,
 * index and key rules are YAML `command:` cases for a document database.
 */
export const suite: SuiteModule = {
  name: 'collation',
  dir: suiteDir(),
  title: 'String collation of a document database (ICU)',
  checks: {
    namespace: namespaceCheck,
    sorts: sortsCheck,
    matches: matchesCheck,
    agrees: agreesCheck,
    plan: planCheck,
    documents: documentsCheck,
    indexKind: indexKindCheck,
  },
  generators: {
    string: () => collationString(),
    validDocument: () => validCollationDocument(),
    invalidDocument: () => invalidCollationDocument(),
  },
  reference: collationReferenceTarget,
};
