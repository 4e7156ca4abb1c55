import { failure, refusal, success, type Handler } from '../answers.js';
import { authorized } from '../auth.js';
import { mediaType } from '../http.js';

/** The one body type E1 takes. */
export const FORM_TYPE = 'application/x-www-form-urlencoded';
/** Status for a body of another type (not shown in the spec; the reference's choice). */
export const WRONG_BODY_TYPE_STATUS = 415;

/** A form body's fields, the first value of each name. */
export function formFields(body: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(body)) if (!(k in out)) out[k] = v;
  return out;
}

/**
 * E1: registers a lead from a form-encoded body. A body of any other type (JSON included) is
 * refused, so an integration that posts JSON learns it at once; then the model validates the
 * fields (400 with every problem) and answers the details with status 200.
 */
export const registerLead: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const type = mediaType(call.headers['content-type']);
    if (type !== FORM_TYPE) return failure(ctx, WRONG_BODY_TYPE_STATUS, [`the lead request must be sent as ${FORM_TYPE}; got ${type === '' ? 'no content type' : type}`]);
    const registered = ctx.model.register(formFields(call.body));
    return registered.ok ? success(ctx, { details: registered.value }) : refusal(ctx, registered);
  });
