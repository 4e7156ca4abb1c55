import { schemaProblems } from '../api/schema-validate.js';
import { isListedStatus, responseSchema, statusFits, type ApiTable } from '../api/table.js';
import type { MatchedExchange } from './match-recording.js';

/** One thing a recorded exchange shows wrong. */
export interface PassiveFinding {
  message: string;
  expected?: unknown;
  actual?: unknown;
}

/** Whether an exchange says anything about a verifier's rule, and what it shows wrong. */
export type PassiveJudgement = { judged: false } | { judged: true; findings: PassiveFinding[] };

/** How one `api.*` verifier judges a single recorded exchange of its operation. */
export interface PassiveJudge {
  /** The exchanges it needs, for the skip reason when the recording has none: "a request ...". */
  evidence: string;
  judge(x: MatchedExchange, table: ApiTable): PassiveJudgement;
}

const NOT_JUDGED: PassiveJudgement = { judged: false };

/** Headers the operation requires that the recorded request lacks (credentials apart). */
export function missingHeaders(x: MatchedExchange): string[] {
  return Object.keys(x.operation.requiredHeaders).filter((h) => x.recorded.requestHeaders[h.toLowerCase()] === undefined);
}

/** Whether the recorded request lacks the credentials its operation requires. */
export function lacksCredentials(x: MatchedExchange, table: ApiTable): boolean {
  return Boolean(x.operation.auth && table.auth && x.recorded.requestHeaders[table.auth.header.toLowerCase()] === undefined);
}

/** A request as the operation wants it: credentials and required headers present. */
function wellFormed(x: MatchedExchange, table: ApiTable): boolean {
  return !lacksCredentials(x, table) && missingHeaders(x).length === 0;
}

function isListed(x: MatchedExchange, table: ApiTable): boolean {
  return isListedStatus(x.operation, x.recorded.status) || isGone(x, table);
}

/**
 * An answer with the table's status for an item that does not exist: one exchange cannot show
 * whether the item existed, so it is a listed answer about which `served` says nothing.
 */
function isGone(x: MatchedExchange, table: ApiTable): boolean {
  const s = x.recorded.status;
  return s >= 400 && s < 500 && statusFits(table.goneStatus, s);
}

function unlisted(x: MatchedExchange): PassiveFinding {
  const listed = Object.keys(x.operation.responses);
  return { message: `answered ${x.recorded.status}, a status operation ${x.operation.id} does not list (it answers ${listed.join(', ')})`, expected: listed.map((k) => (/^\d+$/.test(k) ? Number(k) : k)), actual: x.recorded.status };
}

/**
 * Whether the answer's body was kept cut (over the recording's body cap) where the table names a
 * schema for it: one exchange then cannot show the body right or wrong, and is not judged on it.
 */
export function bodyCutUnderSchema(x: MatchedExchange): boolean {
  return Boolean(x.recorded.responseCut?.parsable && responseSchema(x.operation, x.recorded.status));
}

/** The answer's body against the schema the table names for its status (nothing when it names none). */
function bodyFindings(x: MatchedExchange, table: ApiTable): PassiveFinding[] {
  const schema = responseSchema(x.operation, x.recorded.status);
  if (!schema || x.recorded.responseCut) return [];
  if (x.recorded.parseError !== undefined) return [{ message: `the ${x.recorded.status} answer's body does not parse (${x.recorded.parseError})`, expected: { $schema: schema } }];
  return schemaProblems(table, schema, x.recorded.responseBody).map((p) => ({ message: `${p} (the ${x.recorded.status} answer's body breaks schema ${schema})`, expected: { $schema: schema } }));
}

/**
 * The verifiers a single recorded exchange can judge, by check name (`api.<name>`). Every other
 * rule needs requests the recording did not make (wrong methods, paging walks, batches over the
 * limit, sequences) and is left untested in passive mode.
 */
export const PASSIVE_JUDGES: Readonly<Record<string, PassiveJudge>> = {
  // a proper request is answered with a success status the table lists, with that status's body;
  // a listed error status answers some other situation (an item that is gone) and says nothing here
  served: {
    evidence: 'successful or unlisted answer to a request with its credentials and required headers',
    judge(x, table) {
      if (!wellFormed(x, table)) return NOT_JUDGED;
      const status = x.recorded.status;
      if (!isListed(x, table)) return { judged: true, findings: [unlisted(x)] };
      if (status < 200 || status >= 300 || bodyCutUnderSchema(x)) return NOT_JUDGED;
      return { judged: true, findings: bodyFindings(x, table) };
    },
  },
  // every answer to a proper request uses a status the table lists, with that status's body schema
  // (a request without credentials or required headers is answered by rules of the whole API)
  schema: {
    evidence: 'answer to a request with its credentials and required headers',
    judge(x, table) {
      if (!wellFormed(x, table)) return NOT_JUDGED;
      if (!isListed(x, table)) return { judged: true, findings: [unlisted(x)] };
      if (bodyCutUnderSchema(x)) return NOT_JUDGED;
      return { judged: true, findings: bodyFindings(x, table) };
    },
  },
  // a request without credentials to an operation that requires them is refused
  authRequired: {
    evidence: 'request without credentials',
    judge(x, table) {
      if (!table.auth || !lacksCredentials(x, table)) return NOT_JUDGED;
      if (x.recorded.status === table.auth.status) return { judged: true, findings: [] };
      return { judged: true, findings: [{ message: `answered ${x.recorded.status} to a request without ${table.auth.header}`, expected: table.auth.status, actual: x.recorded.status }] };
    },
  },
};
