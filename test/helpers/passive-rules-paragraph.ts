import type { PassiveRule } from '../../src/engine/passive/passive-rules.js';

/** The sentence a suite's README gives of its passive rules: each rule by name with the requirements it declares. */
export function passiveRulesSentence(rules: Readonly<Record<string, PassiveRule>>): string {
  return Object.entries(rules)
    .map(([name, rule]) => `\`${name}\` (${rule.requirements.map((id) => `\`${id}\``).join(', ')})`)
    .join('; ');
}
