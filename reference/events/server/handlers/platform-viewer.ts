import type { Outcome } from '../../model/outcome.js';
import { forbidden } from '../../model/outcome.js';
import type { PlatformStore } from '../../model/platform-store.js';
import type { OperationCall } from '../answers.js';

/**
 * Who is asking (H, Authentication 1): no `Authorization` header is an anonymous caller;
 * `Bearer <token>` (or `token <token>`) must be a token the platform issued.
 */
export function viewerOf(call: OperationCall, store: PlatformStore): Outcome<string | undefined> {
  const header = call.headers['authorization'];
  if (header === undefined || header.trim() === '') return store.viewerOf(undefined);
  const m = /^(?:bearer|token)\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ? store.viewerOf(m[1]) : forbidden('Bad credentials');
}
