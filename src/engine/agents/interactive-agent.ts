import { createInterface } from 'node:readline';
import { SpecgateError } from '../../errors.js';
import type { UserAgentDriver } from '../../targets/types.js';

/**
 * A person at the terminal performs the user-agent actions: specgate prints what to do (open
 * this page, enter this code, approve or deny) and waits for Enter. Answers other than Enter
 * are passed back as `answer` so a case can tell "done" from "could not".
 */
export class InteractiveAgent implements UserAgentDriver {
  readonly kind = 'interactive';

  constructor(
    private readonly input: NodeJS.ReadableStream & { isTTY?: boolean } = process.stdin,
    private readonly output: NodeJS.WritableStream = process.stderr,
  ) {}

  async perform(action: string, params: Record<string, unknown>, signal?: AbortSignal): Promise<Record<string, unknown>> {
    if (!this.input.isTTY)
      throw new SpecgateError('SG_CONFIG', `the user agent is interactive but standard input is not a terminal; run specgate in a terminal or script the "${action}" action in the target profile`);
    const lines = Object.entries(params).map(([k, v]) => `    ${k}: ${String(v)}`);
    this.output.write(`\n>>> user agent step: ${action}\n${lines.join('\n')}\n    Do this in your browser, then press Enter (or type a note and Enter): `);
    const rl = createInterface({ input: this.input, terminal: false });
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        rl.once('line', resolve);
        signal?.addEventListener('abort', () => reject(new SpecgateError('SG_CASE_TIMEOUT', `no answer to the "${action}" step before the case timed out`)), { once: true });
      });
      return { action, answer: answer.trim() };
    } finally {
      rl.close();
    }
  }
}
