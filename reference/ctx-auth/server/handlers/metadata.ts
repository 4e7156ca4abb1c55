import { buildMetadata } from '../../model/metadata.js';
import { jsonAnswer, type Handler } from '../answers.js';

/**
 * C Auth 2, RFC 8414 §3.2: the metadata document at the root of the origin, issuer the origin
 * itself. Only routed when metadata is published; otherwise the path answers 404.
 */
export const metadata: Handler = (_call, ctx) => jsonAnswer(200, buildMetadata(ctx.issuer, ctx.paths, { registration: ctx.settings.registration }), { 'cache-control': 'no-store' });
