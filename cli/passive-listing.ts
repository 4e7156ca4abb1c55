import type { LoadedSuite } from '../src/engine/model.js';
import { recordingScope, type SettledBy } from '../src/engine/passive/recording-scope.js';
import type { SuiteModule } from '../src/engine/suite-module.js';

const KINDS: Record<SettledBy['kind'], string> = {
  'exchange-case': 'cases judging single exchanges',
  'opted-in-case': 'cases that opted in (passive: judge)',
  rule: 'passive rules',
};

/**
 * `specgate list --passive`: per suite, the gating requirements (MUST) a recording
 * (`--target har:`) can settle, with the cases and passive rules that settle each, and those
 * that need live requests — derived from the loaded suite (src/engine/passive/recording-scope.ts).
 * `--json` gives the same as data.
 */
export function writePassiveListing(suites: readonly LoadedSuite[], modules: readonly SuiteModule[], json: boolean, out: NodeJS.WritableStream): void {
  const listed = suites.map((s) => {
    const scope = recordingScope(s, modules.find((m) => m.name === s.name)?.passiveRules ?? {});
    if (!scope) return { name: s.name, judgedFromRecording: false as const };
    const settles = scope.gating.filter((id) => scope.settledBy.has(id));
    return {
      name: s.name,
      judgedFromRecording: true as const,
      gating: scope.gating.length,
      settles: settles.length,
      requirements: settles.map((id) => ({ id, settledBy: scope.settledBy.get(id) ?? [] })),
      needsLive: scope.gating.filter((id) => !scope.settledBy.has(id)),
    };
  });
  if (json) {
    out.write(`${JSON.stringify(listed, null, 2)}\n`);
    return;
  }
  for (const s of listed) {
    if (!s.judgedFromRecording) {
      out.write(`${s.name}: cannot be judged from a recording (it has no API table, api.yaml)\n`);
      continue;
    }
    out.write(`${s.name}: a recording can settle ${s.settles} of ${s.gating} gating requirements (MUST)\n`);
    const counts = (Object.keys(KINDS) as SettledBy['kind'][]).map((k) => `${s.requirements.filter((r) => r.settledBy.some((b) => b.kind === k)).length} by ${KINDS[k]}`);
    out.write(`  ${counts.join(', ')}\n`);
    for (const r of s.requirements) out.write(`    ${r.id} — ${r.settledBy.map((b) => b.id).join(', ')}\n`);
    if (s.needsLive.length) out.write(`  need live requests (${s.needsLive.length}): ${s.needsLive.join(', ')}\n`);
  }
}
