import type { Handler } from '../answers.js';
import type { CtxRouteId } from '../routes.js';
import { authorize } from './authorize.js';
import { delegationCallback } from './delegation-callback.js';
import { metadata } from './metadata.js';
import { register } from './register.js';
import { resource } from './resource.js';
import { token } from './token.js';

/** Every endpoint of the reference server by its route ID (a test keeps this and routes.ts equal). */
export const CTX_HANDLERS: Readonly<Record<CtxRouteId, Handler>> = { metadata, authorize, token, register, resource, 'delegation-callback': delegationCallback };
