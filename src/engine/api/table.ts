/**
 * An HTTP API described as data (`suites/<suite>/api.yaml`, schema `schemas/api.schema.json`):
 * its operations, the resources they act on, how requests authenticate and how lists page.
 * The engine builds requests by operation ID, generic verifiers, exchange matching, a recording
 * stand-in server and stateful sequences from this one table.
 */

export type ParamType = 'string' | 'integer' | 'number' | 'boolean';

/** One path or query parameter of an operation. */
export interface ApiParameter {
  name: string;
  in: 'path' | 'query';
  type: ParamType;
  /** Path parameters are always required. */
  required?: boolean;
  /** Inclusive bounds of a number, or of a string's length. */
  min?: number;
  max?: number;
}

/** How a list operation pages (defaults filled in by the loader). */
export interface ApiPaging {
  style: 'cursor' | 'offset' | 'page';
  /** Query parameter of the page size. */
  limit: string;
  /** Query parameter that moves through pages: the cursor, the offset or the page number. */
  position: string;
  /** Page size when the request gives none. */
  default: number;
  /** Largest page size honoured. */
  max: number;
  /** A page size above `max`: answered with at most `max` items (`clamp`) or refused (`reject`). */
  overMax: 'clamp' | 'reject';
  /** JSON path of the item array in the answer. */
  items: string;
  /** Cursor style: JSON path of the next cursor (absent, null or empty on the last page). */
  next?: string;
}

/** How a batch operation wraps its items (request) and its per-item results (answer). */
export interface ApiBatch {
  /** JSON path, in the request body, of the item array (`$.items`). */
  items: string;
  /** Schema name of one item. */
  item: string;
  /** JSON path, in the answer, of the per-item result array. */
  results: string;
  /** Schema name of one result, when results have a fixed shape. */
  result?: string;
  /** Most items one batch may hold, when the API says. */
  max?: number;
  /** Status of a batch above `max` items. */
  overMaxStatus: number;
}

/** One operation: an HTTP method on a path template. */
export interface ApiOperation {
  id: string;
  method: string;
  /** Path template below the base, e.g. `/notes/{note_id}`. */
  path: string;
  /** This operation's own base URL expression, when the API spreads over several hosts. */
  base?: string;
  parameters: ApiParameter[];
  /** Headers every request of this operation must carry: name -> the value the engine sends (an expression). */
  requiredHeaders: Record<string, string>;
  /** False: the operation answers without credentials. */
  auth: boolean;
  /** Schema name (`<suite>/<name>`) of the request body, when it takes one. */
  request?: string;
  /**
   * Status -> schema name (`<suite>/<name>`) of the answer body, or null for no body check. A key
   * is a status (`201`) or a class of them (`2XX`: any 2xx), as in OpenAPI.
   */
  responses: Record<string, string | null>;
  paging?: ApiPaging;
  batch?: ApiBatch;
  /** Where it is written in api.yaml (1-based). */
  location?: { file: string; line: number; column: number };
}

/** How an authenticated request is made. */
export interface ApiAuth {
  /** Header carrying the credential. */
  header: string;
  /** Its value; an expression over the target's variables (`Bearer ${api_token}`). */
  value: string;
  /** Status a request without credentials gets. */
  status: number;
}

/** A collection the API manages: which operations create, read, list, change and remove it. */
export interface ApiResource {
  name: string;
  /** Field of a representation holding its ID, or a JSON path to it (`$.productId.productId`). */
  id: string;
  /** Path parameter naming one item in get/update/delete. */
  param: string;
  /** JSON path of the item array in the list operation's answer, when the list does not page. */
  items?: string;
  create?: string;
  get?: string;
  list?: string;
  update?: string;
  delete?: string;
  /** An ID no item has, for requests that must find nothing. */
  missingId: string;
}

/** A loaded API table. Schema names are already qualified (`<suite>/<name>`). */
export interface ApiTable {
  suite: string;
  /** Expression of the base URL, e.g. `${api_url}`. */
  base: string;
  auth?: ApiAuth;
  /** Status an unlisted method on a known path gets. */
  wrongMethodStatus: number;
  /** What a request for an item that does not exist (or no longer does) gets: a status, or `4XX` for any client error. */
  goneStatus: StatusRule;
  /** Values of path parameters a request does not give (expressions over the target's variables). */
  params: Record<string, string>;
  operations: ApiOperation[];
  resources: Record<string, ApiResource>;
  /** The schemas the table names, by qualified name (for validation and generated bodies). */
  schemas: Record<string, object>;
  /** The file it came from, as shown in messages. */
  file: string;
}

/** The operation with this ID, or undefined. */
export function findOperation(table: ApiTable, id: string): ApiOperation | undefined {
  return table.operations.find((o) => o.id === id);
}

/** Names of the path parameters in a template (`/a/{x}/b/{y}` -> x, y). */
export function templateParams(path: string): string[] {
  return [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
}

/** The resource an operation belongs to, with the role it plays there. */
export function resourceOf(table: ApiTable, operationId: string): { resource: ApiResource; role: 'create' | 'get' | 'list' | 'update' | 'delete' } | undefined {
  for (const resource of Object.values(table.resources)) {
    for (const role of ['create', 'get', 'list', 'update', 'delete'] as const) if (resource[role] === operationId) return { resource, role };
  }
  return undefined;
}

/** A status an answer must have: one (`404`) or any of a class (`4XX`). */
export type StatusRule = number | `${1 | 2 | 3 | 4 | 5}XX`;

/** Whether `status` satisfies a rule. */
export function statusFits(rule: StatusRule, status: number): boolean {
  return typeof rule === 'number' ? status === rule : Math.floor(status / 100) === Number(rule[0]);
}

/** A rule as messages show it: `404`, `any 4xx`. */
export function describeRule(rule: StatusRule): string {
  return typeof rule === 'number' ? String(rule) : `any ${rule.toLowerCase()}`;
}

/** The key of `op.responses` that covers a status: its own (`201`) before its class (`2XX`). */
export function responseKey(op: ApiOperation, status: number): string | undefined {
  const own = String(status);
  if (Object.hasOwn(op.responses, own)) return own;
  const cls = `${own[0] ?? ''}XX`;
  return Object.hasOwn(op.responses, cls) ? cls : undefined;
}

/** Whether the table lists `status` among the operation's answers. */
export function isListedStatus(op: ApiOperation, status: number): boolean {
  return responseKey(op, status) !== undefined;
}

/** The schema the table names for an answer with this status (null: not checked; undefined: not listed). */
export function responseSchema(op: ApiOperation, status: number): string | null | undefined {
  const key = responseKey(op, status);
  return key === undefined ? undefined : op.responses[key];
}

/** Whether `status` is a success (2xx) the table lists for the operation. */
export function isSuccess(op: ApiOperation, status: number): boolean {
  return status >= 200 && status < 300 && isListedStatus(op, status);
}

/**
 * The success statuses an operation lists, lowest first; a class (`2XX`) counts as its first
 * status (200), which is what a stand-in answers. Judge an answer with `isSuccess`.
 */
export function successStatuses(op: ApiOperation): number[] {
  return [...new Set(Object.keys(op.responses).filter((k) => k.startsWith('2')).map((k) => Number(k.replace(/XX$/, '00'))))].sort((a, b) => a - b);
}

/** The operation's success statuses as messages show them: `201`, `200 or 204`, `any 2xx`. */
export function successLabel(op: ApiOperation): string {
  const keys = Object.keys(op.responses).filter((k) => k.startsWith('2'));
  return keys.length ? keys.map((k) => (k.endsWith('XX') ? `any ${k.toLowerCase()}` : k)).join(' or ') : 'no 2xx status';
}
