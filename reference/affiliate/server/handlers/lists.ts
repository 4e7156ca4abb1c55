import { refusal, success, type Handler } from '../answers.js';
import { authorized } from '../auth.js';

/** E2: the autologin target of `leadRequestID` (400 when absent, 404 when unknown: IDs are case-sensitive). */
export const autologin: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const target = ctx.model.autologin(call.query.get('leadRequestID') ?? undefined);
    return target.ok ? success(ctx, { details: target.value }) : refusal(ctx, target);
  });

/** E3: `data.items`, `data.page`, `data.totalItems`. */
export const offers: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const page = ctx.model.listOffers(call.query);
    return page.ok ? success(ctx, { data: page.value }) : refusal(ctx, page);
  });

/** E4: `items` and `total.items` (an integer). */
export const leads: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const page = ctx.model.listLeads(call.query);
    return page.ok ? success(ctx, { items: page.value.items, total: { items: page.value.total } }) : refusal(ctx, page);
  });

/** E5: `items` and `total.items`, here a string as the spec types it. */
export const conversions: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const page = ctx.model.listConversions(call.query);
    return page.ok ? success(ctx, { items: page.value.items, total: { items: String(page.value.total) } }) : refusal(ctx, page);
  });

/** E6: `cost` and `income`. */
export const income: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const summary = ctx.model.income(call.query);
    return summary.ok ? success(ctx, { cost: summary.value.cost, income: summary.value.income }) : refusal(ctx, summary);
  });

/** E7: `items` and `total.items` (an integer). */
export const postbacks: Handler = (call, ctx) =>
  authorized(call, ctx, () => {
    const page = ctx.model.listPostbacks(call.query);
    return page.ok ? success(ctx, { items: page.value.items, total: { items: page.value.total } }) : refusal(ctx, page);
  });
