import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readReport, runCli, type CliResult, type JsonReport } from '../e2e/cli.js';
import { harFile, type HarEntryShape } from '../targets/har/har-builder.js';

/**
 * Judges recorded traffic through the CLI: writes `entries` as `<dir>/<name>.har` and runs
 * `specgate run --suite <suite> --target har:<file>` in `dir` with a JSON report beside it.
 * Throws with the output when the run wrote no report.
 */
export async function judgeHar(dir: string, suite: string, name: string, entries: readonly unknown[], extra: readonly string[] = []): Promise<CliResult & { report: JsonReport }> {
  const har = join(dir, `${name}.har`);
  writeFileSync(har, JSON.stringify(harFile([...entries]), null, 1));
  const json = join(dir, `${name}.json`);
  const res = await runCli(['run', '--suite', suite, '--target', `har:${har}`, '--report', `json=${json}`, ...extra], { cwd: dir });
  let report: JsonReport;
  try {
    report = readReport(json);
  } catch {
    throw new Error(`the run wrote no JSON report (exit ${res.code}): ${res.stderr}${res.stdout}`);
  }
  return { ...res, report };
}

/** Entry `i` of a recording, to change it. */
export const entryOf = (entries: readonly unknown[], i: number): HarEntryShape => entries[i] as HarEntryShape;

/** The URL path an entry's request was sent to. */
export const pathOf = (e: unknown): string => new URL((e as HarEntryShape).request.url).pathname;

/** The index of the first entry with this method whose URL path matches `tail`; throws when there is none. */
export function indexOf(entries: readonly unknown[], method: string, tail: RegExp): number {
  const i = entries.findIndex((e) => (e as HarEntryShape).request.method === method && tail.test(pathOf(e)));
  if (i < 0) throw new Error(`the recording has no ${method} ${String(tail)}`);
  return i;
}

/** Sets an entry's answer: the status and a JSON body. */
export function answerWith(entry: HarEntryShape, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  entry.response.status = status;
  entry.response.content = { size: text.length, mimeType: 'application/json', text };
}

/** Why a requirement got its verdict, as the report says. */
export const reasonOf = (report: JsonReport, id: string): string | null | undefined => report.requirements.find((r) => r.id === id)?.reason;
