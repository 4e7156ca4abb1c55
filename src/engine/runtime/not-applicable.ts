import { SkipCase } from './time.js';

/**
 * Thrown inside a case to end it as not applicable (`ctx.notApplicable`): what it judges does
 * not apply to this target (a mode or side the target does not have). The case is skipped with
 * the reason and its requirements are not applicable, unless another case judged them. A skip
 * of its own kind, so that every place that lets a skip through lets this through too.
 */
export class NotApplicableCase extends SkipCase {}
