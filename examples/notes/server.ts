import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { listenOnLoopback } from '../../src/targets/loopback-server.js';

/** Faults a copy of the service can carry, to show which checks catch them. */
export interface NotesFaults {
  /** GET /notes ignores `limit` (every page holds the default 20). */
  ignoreLimit?: boolean;
  /** DELETE /notes/{id} answers 204 and keeps the note. */
  keepDeleted?: boolean;
  /** POST /notes creates the note but answers 202 instead of 201 (one defect that other rules rest on). */
  createAccepted?: boolean;
}

export interface NotesServerOptions {
  /** The one token the service accepts. */
  token: string;
  faults?: NotesFaults;
  port?: number;
}

export interface RunningNotesServer {
  url: string;
  stop(): Promise<void>;
}

interface Note {
  id: string;
  title: string;
  body: string;
}

const PAGE_DEFAULT = 20;
const PAGE_MAX = 50;
const BATCH_MAX = 10;

/** The methods offered on each path shape (notes-spec.txt#Operations). */
const ROUTES: [RegExp, string[]][] = [
  [/^\/health$/, ['GET']],
  [/^\/notes$/, ['GET', 'POST']],
  [/^\/notes\/batch$/, ['POST']],
  [/^\/notes\/[^/]+$/, ['GET', 'PATCH', 'DELETE']],
  [/^\/tags$/, ['GET', 'POST']],
  [/^\/tags\/[^/]+$/, ['DELETE']],
];

/**
 * The notes service of notes-spec.txt, in memory, on 127.0.0.1 (an ephemeral port unless one
 * is given). With `faults` it is the planted-fault copy.
 */
export async function startNotesServer(opts: NotesServerOptions): Promise<RunningNotesServer> {
  const faults = opts.faults ?? {};
  const notes = new Map<string, Note>();
  const tags = new Map<string, { id: string; name: string }>();
  let seq = 0;
  const server = createServer((req, res) => {
    void handle(req, res).catch((e: unknown) => send(res, 500, { error: e instanceof Error ? e.message : String(e) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    const route = ROUTES.find(([re]) => re.test(path));
    if (!route) return send(res, 404, { error: `no such path ${path}` });
    // the most literal route wins: /notes/batch is not a note
    const methods = path === '/notes/batch' ? ['POST', 'GET', 'PATCH', 'DELETE'] : route[1];
    if (!methods.includes(method)) return send(res, 405, { error: `${method} is not offered on ${path}` }, { allow: methods.join(', ') });
    if (path === '/health') return send(res, 200, { status: 'ok' });
    if (req.headers.authorization !== `Bearer ${opts.token}`) return send(res, 401, { error: 'a valid bearer token is required' });
    const text = await readBody(req);
    let body: unknown;
    if (text) {
      try {
        body = JSON.parse(text);
      } catch {
        return send(res, 400, { error: 'the body is not JSON' });
      }
    }
    const [, top, id] = path.split('/');
    if (top === 'notes' && id === 'batch' && method === 'POST') return batchCreate(res, body);
    if (top === 'notes' && id === undefined) return method === 'GET' ? listNotes(res, url) : createNote(res, body);
    if (top === 'notes' && id !== undefined) return oneNote(res, method, decodeURIComponent(id), body);
    if (top === 'tags' && id === undefined) {
      if (method === 'GET') return send(res, 200, { items: [...tags.values()] });
      const name = (body as { name?: unknown } | undefined)?.name;
      if (!isObject(body) || typeof name !== 'string' || name.length < 1 || name.length > 40 || Object.keys(body).length !== 1)
        return send(res, 400, { error: 'a tag is {"name": 1 to 40 characters}' });
      const tag = { id: `t${++seq}`, name };
      tags.set(tag.id, tag);
      return send(res, 201, tag);
    }
    const tagId = decodeURIComponent(id ?? '');
    if (!tags.delete(tagId)) return send(res, 404, { error: `no tag ${tagId}` });
    return send(res, 204);
  }

  function listNotes(res: ServerResponse, url: URL): void {
    const given = url.searchParams.get('limit');
    let limit = PAGE_DEFAULT;
    if (given !== null && !faults.ignoreLimit) {
      if (!/^\d+$/.test(given) || Number(given) < 1) return send(res, 400, { error: 'limit is a whole number from 1' });
      limit = Math.min(Number(given), PAGE_MAX);
    }
    const after = Number(url.searchParams.get('cursor') ?? 0);
    const rest = [...notes.values()].filter((n) => Number(n.id.slice(1)) > after);
    const items = rest.slice(0, limit);
    const last = items[items.length - 1];
    send(res, 200, { items, next_cursor: rest.length > limit && last ? last.id.slice(1) : null });
  }

  function createNote(res: ServerResponse, body: unknown): void {
    const problem = noteProblem(body, true);
    if (problem) return send(res, 400, { error: problem });
    send(res, faults.createAccepted ? 202 : 201, addNote(body as Partial<Note>));
  }

  function addNote(input: Partial<Note>): Note {
    const note = { id: `n${++seq}`, title: String(input.title), body: input.body ?? '' };
    notes.set(note.id, note);
    return note;
  }

  function oneNote(res: ServerResponse, method: string, id: string, body: unknown): void {
    const note = notes.get(id);
    if (!note) return send(res, 404, { error: `no note ${id}` });
    if (method === 'GET') return send(res, 200, note);
    if (method === 'DELETE') {
      if (!faults.keepDeleted) notes.delete(id);
      return send(res, 204);
    }
    const problem = noteProblem(body, false);
    if (problem) return send(res, 400, { error: problem });
    Object.assign(note, body);
    send(res, 200, note);
  }

  function batchCreate(res: ServerResponse, body: unknown): void {
    const items = isObject(body) ? body['items'] : undefined;
    if (!Array.isArray(items) || items.length < 1 || items.length > BATCH_MAX) return send(res, 400, { error: `a batch is {"items": [1 to ${BATCH_MAX} notes]}` });
    const problem = items.map((n) => noteProblem(n, true)).find((p) => p);
    if (problem) return send(res, 400, { error: problem });
    send(res, 200, { results: items.map((n) => ({ id: addNote(n as Partial<Note>).id, status: 201 })) });
  }

  const listening = await listenOnLoopback(server, opts.port ?? 0);
  return {
    ...listening,
  };
}

/** Why a body is not a note (or a note patch), or undefined. */
function noteProblem(body: unknown, creating: boolean): string | undefined {
  if (!isObject(body)) return 'a note is a JSON object';
  const extra = Object.keys(body).filter((k) => k !== 'title' && k !== 'body');
  if (extra.length) return `unknown field ${extra.join(', ')}`;
  const { title, body: text } = body;
  if ((creating || title !== undefined) && (typeof title !== 'string' || title.length < 1 || title.length > 80)) return 'title is 1 to 80 characters';
  if (text !== undefined && (typeof text !== 'string' || text.length > 2000)) return 'body is up to 2000 characters';
  return undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return Boolean(v) && typeof v === 'object' && !Array.isArray(v);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body?: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) res.writeHead(status, headers).end();
  else res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
}
