import { decodeRequest, encodeRequest } from '../../../reference/plugin/codec.js';
import type { PropertyInfo } from '../../../src/engine/model.js';
import type { FuzzOptions } from '../../../src/engine/suite-module.js';
import { writeCounterexample } from './counterexample-files.js';
import type { LaneFinding } from './lane-run.js';
import { noRegressionCase, regressionCaseYaml } from './regression-case.js';

/** One finding as reported: its lines, the files written for it, and how to replay it. */
export interface ReportedFinding {
  lines: string[];
  files: string[];
  replay: string;
  property: PropertyInfo;
}

/** stderr on one line for the summary (the counterexample files keep the request, not stderr). */
function oneLine(text: string, max = 300): string {
  const flat = text.trim().replace(/\s*\n\s*/g, ' | ');
  return flat.length <= max ? flat : `${flat.slice(0, max)}...`;
}

/**
 * Writes one finding's counterexample files (see counterexample-files.ts) as
 * `fuzz-plugin-<seed>-<requirement>.*`, and words it: the requirement and what happened, what
 * the request shrank to, each file written, and the command that replays it. `gating` says
 * whether it fails the search; a finding below the gating level says so on its first line.
 * `suffix` is added to the first line (the run's counts).
 */
export function reportFinding(opts: Pick<FuzzOptions, 'outDir' | 'commandLine'>, f: LaneFinding, gating: boolean, suffix = ''): ReportedFinding {
  const request = f.case.request;
  const replay = `${opts.commandLine} --seed ${f.seed}${f.path ? ` --path ${f.path}` : ''} --runs 1`;
  const finding = f.finding;
  // The case holds the request as the .json does (decoded, plain JSON values), so the two agree.
  const decoded: unknown = JSON.parse(JSON.stringify(decodeRequest(encodeRequest(request))));
  const why = noRegressionCase(finding.requirement);
  const written = writeCounterexample(opts.outDir, `fuzz-plugin-${f.seed}-${finding.requirement.toLowerCase()}`, {
    bin: f.bytes,
    json: `${JSON.stringify(decoded, null, 2)}\n`,
    ...(why === undefined
      ? { yaml: (base: string) => regressionCaseYaml({ seed: f.seed, id: base.replace(/^fuzz-plugin-/, 'fuzz-'), request: decoded, finding, replay, ...(finding.kind === 'order' ? { order: f.case.order } : {}) }) }
      : {}),
  });
  const detail = [finding.signal ? `signal ${finding.signal}` : finding.exitCode !== undefined && finding.exitCode !== 0 ? `exit status ${String(finding.exitCode)}` : '', finding.stderr ? `stderr: ${oneLine(finding.stderr)}` : '']
    .filter((s) => s !== '')
    .join('; ');
  const level = gating ? '' : ' — below the gating level: reported, but the search does not fail on it';
  const lines = [
    `${finding.requirement}: ${finding.message}${detail ? ` [${detail}]` : ''} — shrunk to a request of ${request.proto_file.length} file(s) after ${f.shrinks ?? 0} shrink steps${level}${suffix}`,
    ...written.files.map((file) => `  wrote ${file}`),
    ...(why === undefined ? [] : [`  no regression case: ${why}`]),
    `  replay: ${replay}`,
  ];
  const property: PropertyInfo = { seed: f.seed, runs: 1, counterexample: f.case, replay, ...(f.path ? { path: f.path } : {}), ...(f.shrinks === undefined ? {} : { shrinks: f.shrinks }) };
  return { lines, files: written.files, replay, property };
}
