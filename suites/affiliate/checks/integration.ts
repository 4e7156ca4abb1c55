import { judgedCheck } from '../../../src/engine/checks/judged.js';
import { INTEGRATION_JUDGES } from './integration-judges.js';
import { integrationCommand, runIntegration, type IntegrationRun } from './integration-run.js';
import { SCENARIOS } from './integration-scenarios.js';

interface IntegrationArgs {
  scenario: string;
}

/**
 * `affiliate.integration`: plays the affiliate platform for the integration under test (a fresh
 * reference platform per case, its autologin URLs below a landing server of specgate's), launches
 * it with the contract of reference/affiliate/integration/README.md, drives its pages in headless
 * Chromium through the case's scenario, and judges what the browser, the platform and the
 * landing server saw: the key kept server-side, form registration, the redirect after 200 and
 * 201, the error text, and the autologin hand-over of each target shape.
 */
export const integration = judgedCheck<IntegrationArgs, IntegrationRun>({
  description: 'launch the affiliate integration against the played platform, drive its pages in headless Chromium, and judge the key handling, registration and autologin hand-over',
  args: {
    type: 'object',
    additionalProperties: false,
    required: ['scenario'],
    properties: { scenario: { type: 'string', enum: [...SCENARIOS], description: 'what the browser does: a sign-up answered 200, 201 or refused, or the autologin of a lead of one target shape' } },
  },
  visitsPages: true,
  observe: (ctx, args) => runIntegration(ctx, integrationCommand(ctx), args.scenario),
  judgeBy: INTEGRATION_JUDGES,
});
