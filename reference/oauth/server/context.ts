import { randomBytes } from 'node:crypto';
import type { Platform } from '../model/platform.js';
import type { PendingAuthorization } from '../model/web-flow.js';
import type { Reply } from './http-util.js';

/** Browser session state of the reference platform (cookie `sg_session`). */
export interface Session {
  id: string;
  csrf: string;
  userId?: number;
  /** Authorization requests waiting for the user's decision, by id. */
  pending: Map<string, PendingAuthorization>;
  /** Authorization URLs whose account picker the user answered (each used once). */
  accountChosen: Set<string>;
}

export const SESSION_COOKIE = 'sg_session';

export class Sessions {
  private readonly byId = new Map<string, Session>();

  get(id: string | undefined): Session | undefined {
    return id ? this.byId.get(id) : undefined;
  }

  create(): Session {
    const s: Session = { id: token(), csrf: token(), pending: new Map(), accountChosen: new Set() };
    this.byId.set(s.id, s);
    return s;
  }

  cookie(s: Session): string {
    return `${SESSION_COOKIE}=${s.id}; Path=/; HttpOnly; SameSite=Lax`;
  }
}

export function token(): string {
  return randomBytes(16).toString('hex');
}

/** One request as the route handlers see it. */
export interface RouteRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  params: Record<string, string>;
  session: Session | undefined;
}

export interface RouteContext {
  platform: Platform;
  sessions: Sessions;
}

export type Route = (req: RouteRequest, ctx: RouteContext) => Reply | Promise<Reply>;
