import { SpecgateError } from '../../errors.js';
import type { Step } from '../model.js';
import type { UserAgentDriver } from '../../targets/types.js';

/**
 * A user agent scripted in the target profile: each action (approve, deny, enter-user-code, ...)
 * is a list of ordinary steps (HTTP requests with captures) the engine runs inside the case,
 * with the action's parameters as variables. What the steps capture is the action's result.
 */
export class ScriptedAgent implements UserAgentDriver {
  readonly kind = 'scripted';

  constructor(readonly actions: Record<string, Step[]>) {}

  steps(action: string): Step[] | undefined {
    return this.actions[action];
  }

  perform(): Promise<Record<string, unknown>> {
    // The engine runs scripted actions itself (see CaseRun.agentFor in runtime/case-run.ts), so
    // that their requests are checked, captured and reported like any other step.
    return Promise.reject(new SpecgateError('SG_INTERNAL', 'scripted agent actions run through the engine as steps (CaseRun.agentFor), never through perform()'));
  }
}
