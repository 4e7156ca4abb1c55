import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PassiveRule } from '../../../src/engine/suite-module.js';
import { answerShapes, leadRecords, successEnvelope } from './answers.js';
import { datesRequired, httpCodeStatus, keyRequired } from './refusals.js';

/**
 * The affiliate rules over a whole recording (`--target har:`), for the suite in `dir`: what
 * any recorded exchange of its kind settles, whatever was sent before it (README.md, "Judged
 * from a recording").
 */
export function affiliatePassiveRules(dir: string): Record<string, PassiveRule> {
  const envelope = JSON.parse(readFileSync(join(dir, 'schemas', 'envelope.json'), 'utf8')) as object;
  return {
    'key-required': keyRequired,
    'dates-required': datesRequired,
    'httpcode-status': httpCodeStatus,
    'success-envelope': successEnvelope(envelope),
    'answer-shapes': answerShapes,
    'lead-records': leadRecords,
  };
}
