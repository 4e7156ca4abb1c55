/**
 * Verdicts that point at the cause, in-process on a small suite of its own: one defect fails one
 * requirement and what rests on it is blocked (an assumed requirement, a precondition step, a
 * typed check that blocks); no pass without evidence (`$each` over an empty list, `evidence:`,
 * a check that finds nothing applicable), with controls where the same cases pass.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { RequirementVerdict } from '../../../src/engine/model.js';
import { loadSuites, run } from '../../../src/engine/run.js';
import type { SuiteModule } from '../../../src/engine/suite-module.js';
import { listenOnLoopback } from '../../../src/targets/loopback-server.js';

/** What the little service gets wrong (nothing, when empty). */
interface Faults {
  emptyList?: boolean;
  registerStatus?: number;
  noMessages?: boolean;
  refuseWith?: number;
  stringIds?: boolean;
  /** GET /own answers 500. */
  ownBroken?: boolean;
}

const REQUIREMENTS = `
- { id: T-ITEM-SHAPE, level: MUST, source: "t.txt#A", text: every item has a numeric id }
- { id: T-ITEM-NAMES, level: MUST, source: "t.txt#A", text: the list names its items }
- { id: T-REGISTER, level: MUST, source: "t.txt#B", text: a registration answers 200 }
- { id: T-REQUIRED-NAME, level: MUST, source: "t.txt#B", text: a registration without a name is refused with 400 }
- { id: T-MESSAGES, level: MUST, source: "t.txt#C", text: "a refusal carries messages[0]" }
- { id: T-REFUSE-KEY, level: MUST, source: "t.txt#C", text: a request without a key is refused with 401 and says why }
- { id: T-CHECKED, level: MUST, source: "t.txt#D", text: the typed check judges the items }
- { id: T-OWN, level: MUST, source: "t.txt#E", text: GET /own answers 200 }
- { id: T-AFTER, level: MUST, source: "t.txt#E", text: what is judged after GET /own }
- { id: T-OWN-CHECKED, level: MUST, source: "t.txt#F", text: GET /own answers 200 (judged by a check alone) }
- { id: T-AFTER-CHECKED, level: MUST, source: "t.txt#F", text: what the check judges after it }
`;

const CASES = `
- id: item-shape
  requirements: [T-ITEM-SHAPE]
  steps:
    - request: { method: GET, url: "\${base_url}/items" }
      expect: { status: 200, body: { items: { $each: { id: { $type: number } } } } }
- id: item-names
  requirements: [T-ITEM-NAMES]
  steps:
    - request: { method: GET, url: "\${base_url}/items" }
      expect: { status: 200, evidence: $.items }
- id: register
  requirements: [T-REGISTER]
  steps:
    - request: { method: POST, url: "\${base_url}/register", json: { name: a } }
      expect: { status: 200 }
- id: register-without-name
  requirements: [T-REQUIRED-NAME]
  steps:
    - request: { method: POST, url: "\${base_url}/register", json: { name: b } }
      precondition: T-REGISTER
      expect: { status: 200 }
    - request: { method: POST, url: "\${base_url}/register", json: {} }
      expect: { status: 400 }
- id: messages
  requirements: [T-MESSAGES]
  steps:
    - request: { method: GET, url: "\${base_url}/secret" }
      expect: { body: { messages: { $length: 1 } } }
- id: refuse-without-key
  requirements: [T-REFUSE-KEY]
  assumes: [T-MESSAGES]
  steps:
    - request: { method: GET, url: "\${base_url}/secret" }
      expect: { status: 401, body: { messages: [{ $pattern: "key" }] } }
- id: checked
  requirements: [T-CHECKED]
  steps:
    - check: t.items
- id: own-rule-expected-then-checked
  requirements: [T-OWN, T-AFTER]
  steps:
    - request: { method: GET, url: "\${base_url}/own" }
      expect: { status: 200, requirement: T-OWN }
    - check: t.own
      with: { owner: T-OWN, after: T-AFTER }
- id: own-rule-checked
  requirements: [T-OWN-CHECKED, T-AFTER-CHECKED]
  steps:
    - check: t.own
      with: { owner: T-OWN-CHECKED, after: T-AFTER-CHECKED }
`;

function service(faults: Faults): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString()));
    req.on('end', () => {
      if (req.url === '/items') return send(200, { items: faults.emptyList ? [] : faults.stringIds ? [{ id: '1' }, { id: '2' }] : [{ id: 1 }, { id: 2 }] });
      if (req.url === '/register') {
        const body = JSON.parse(text || '{}') as { name?: string };
        if (!body.name) return send(400, { messages: ['name is required'] });
        return send(faults.registerStatus ?? 200, { id: 7 });
      }
      if (req.url === '/own') return send(faults.ownBroken ? 500 : 200, {});
      if (req.url === '/secret') return send(faults.refuseWith ?? 401, faults.noMessages ? { error: 'no key' } : { messages: ['an API key is required'] });
      send(404, { messages: ['no such route'] });
    });
  };
}

describe('verdicts that point at the cause', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-trust-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), REQUIREMENTS);
  writeFileSync(join(dir, 'cases', 'all.yaml'), CASES);

  const moduleFor = (faults: Faults): SuiteModule => ({
    name: 't',
    dir,
    checks: {
      items: defineCheck({
        description: 'reads the items and judges each',
        args: { type: 'object' },
        judges: ['T-CHECKED', 'T-ITEM-SHAPE'],
        async run(ctx) {
          const res = await ctx.request({ method: 'GET', url: `${String(ctx.vars['base_url'])}/items` });
          if (res.status !== 200) ctx.blocked('T-ITEM-SHAPE', `the list answered ${res.status}`, res.exchange);
          const items = (res.body as { items: { id: unknown }[] }).items;
          // the shape rule is another case's: a broken one here blocks this case (the engine turns it so)
          if (items.some((i) => typeof i.id !== 'number')) ctx.fail({ requirement: 'T-ITEM-SHAPE', message: 'an item id is not a number', exchange: res.exchange });
          if (!items.length) return ctx.noEvidence('T-CHECKED', 'the list held no items');
          ctx.observed('T-CHECKED', items.length);
        },
      }),
      own: defineCheck<{ owner: string; after: string }>({
        description: 'blocks the case by the owner when GET /own is not 200; else judges both',
        args: { type: 'object' },
        judges: 'case',
        async run(ctx, args) {
          const res = await ctx.request({ method: 'GET', url: `${String(ctx.vars['base_url'])}/own` });
          if (res.status !== 200) ctx.blocked(args.owner, `GET /own answered ${res.status}, so nothing after it can be judged`, res.exchange);
          ctx.observed(args.owner);
          ctx.observed(args.after);
        },
      }),
    },
    reference: {
      start: async () => {
        const server = await listenOnLoopback(createServer(service(faults)));
        return { description: 'the little service', vars: { base_url: server.url }, stop: () => server.stop() };
      },
    },
  });

  const judge = async (faults: Faults): Promise<{ byId: Record<string, RequirementVerdict>; exitCode: number }> => {
    const result = await run({ modules: [moduleFor(faults)], suites: ['t'], targets: {}, seed: 3 });
    return { byId: Object.fromEntries(result.requirements.map((v) => [v.id, v])), exitCode: result.summary.exitCode };
  };
  const statuses = (byId: Record<string, RequirementVerdict>): Record<string, string> => Object.fromEntries(Object.entries(byId).map(([k, v]) => [k, v.status]));

  it('control: a correct service passes every requirement, each on its evidence', async () => {
    const { byId, exitCode } = await judge({});
    expect(exitCode).toBe(0);
    expect(Object.values(byId).every((v) => v.status === 'passed')).toBe(true);
    expect([byId['T-ITEM-SHAPE']?.evidence, byId['T-ITEM-NAMES']?.evidence, byId['T-CHECKED']?.evidence]).toEqual([2, 2, 2]);
    // the request expectation and the check each judged GET /own
    expect([byId['T-OWN']?.evidence, byId['T-AFTER']?.evidence, byId['T-OWN-CHECKED']?.evidence]).toEqual([2, 1, 1]);
    // the precondition step set the case up and judged nothing of it: only the refusal counts
    expect(byId['T-REQUIRED-NAME']?.evidence).toBe(1);
  });

  it('an empty list judges nothing: the rules on its items are untested with the reason, never passed', async () => {
    const { byId, exitCode } = await judge({ emptyList: true });
    expect(exitCode).toBe(0);
    expect(byId['T-ITEM-SHAPE']).toMatchObject({ status: 'untested', evidence: 0, reason: 'nothing to judge: the answer held no items at $.items (case item-shape)' });
    expect(byId['T-ITEM-NAMES']).toMatchObject({ status: 'untested', reason: 'nothing to judge: the answer held no items at $.items (case item-names)' });
    expect(byId['T-CHECKED']).toMatchObject({ status: 'untested', reason: 'nothing to judge: the list held no items (case checked)' });
    expect(byId['T-REGISTER']?.status).toBe('passed');
  });

  it('a registration answered 202 fails only the registration rule; the rule whose setup needs it is blocked', async () => {
    const { byId, exitCode } = await judge({ registerStatus: 202 });
    expect(exitCode).toBe(1);
    expect(Object.entries(statuses(byId)).filter(([, s]) => s === 'failed').map(([id]) => id)).toEqual(['T-REGISTER']);
    expect(byId['T-REQUIRED-NAME']).toMatchObject({ status: 'blocked', blockedBy: ['T-REGISTER'] });
    expect(byId['T-REQUIRED-NAME']?.reason).toMatch(/^blocked by T-REGISTER: a step the case rests on did not hold: status: .*202/);
  });

  it('refusals without messages[0] fail only the message rule; the refusal rule that reads it is blocked', async () => {
    const { byId } = await judge({ noMessages: true });
    expect(Object.entries(statuses(byId)).filter(([, s]) => s === 'failed').map(([id]) => id)).toEqual(['T-MESSAGES']);
    expect(byId['T-REFUSE-KEY']).toMatchObject({ status: 'blocked', blockedBy: ['T-MESSAGES'] });
  });

  it('a check that finds a rule broken that its case rests on but does not judge blocks the case by it (not an error)', async () => {
    const { byId, exitCode } = await judge({ stringIds: true });
    expect(exitCode).toBe(1);
    expect(Object.entries(statuses(byId)).filter(([, s]) => s === 'failed').map(([id]) => id)).toEqual(['T-ITEM-SHAPE']);
    expect(byId['T-CHECKED']).toMatchObject({ status: 'blocked', blockedBy: ['T-ITEM-SHAPE'] });
    expect(byId['T-CHECKED']?.reason).toMatch(/check t\.items found the target breaking it \(an item id is not a number\)/);
  });

  it('a rule a case rests on and judges itself fails once when it breaks; the rest of the case is blocked by it', async () => {
    const { byId, exitCode } = await judge({ ownBroken: true });
    expect(exitCode).toBe(1);
    expect(Object.entries(statuses(byId)).filter(([, s]) => s === 'failed').map(([id]) => id).sort()).toEqual(['T-OWN', 'T-OWN-CHECKED']);
    // the expectation already said why: the check that stops the case adds no second failure
    expect(byId['T-OWN']?.failures.map((f) => f.message)).toEqual(['status: expected 200, got 500']);
    // a check alone: the owner fails with the check's reason
    expect(byId['T-OWN-CHECKED']?.failures.map((f) => f.message)).toEqual(['GET /own answered 500, so nothing after it can be judged']);
    expect(byId['T-AFTER']).toMatchObject({ status: 'blocked', blockedBy: ['T-OWN'] });
    expect(byId['T-AFTER-CHECKED']).toMatchObject({ status: 'blocked', blockedBy: ['T-OWN-CHECKED'] });
  });

  it('a refusal with the wrong status still fails the refusal rule: an assumption that holds blocks nothing', async () => {
    const { byId } = await judge({ refuseWith: 403 });
    expect(byId['T-MESSAGES']?.status).toBe('passed');
    expect(byId['T-REFUSE-KEY']?.status).toBe('failed');
  });
});

describe('the loader checks what a case relies on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-trust-load-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), '- { id: L-ONE, level: MUST, source: "l.txt#A", text: one }\n- { id: L-TWO, level: MUST, source: "l.txt#A", text: two }\n- { id: L-OFF, level: MUST, source: "l.txt#A", text: off, excluded: not observable }\n');
  writeFileSync(
    join(dir, 'cases', 'bad.yaml'),
    [
      '- id: assumes-itself',
      '  requirements: [L-ONE]',
      '  assumes: [L-ONE, L-NOPE]',
      '  steps:',
      '    - request: { method: GET, url: "http://127.0.0.1:9/" }',
      '      expect: { status: 200 }',
      '- id: precondition-excluded',
      '  requirements: [L-TWO]',
      '  steps:',
      '    - request: { method: GET, url: "http://127.0.0.1:9/" }',
      '      precondition: L-OFF',
      '      expect: { status: 200 }',
      '',
    ].join('\n'),
  );
  writeFileSync(join(dir, 'cases', 'bad-evidence.yaml'), '- id: evidence-no-path\n  requirements: [L-TWO]\n  steps:\n    - request: { method: GET, url: "http://127.0.0.1:9/" }\n      expect: { status: 200, evidence: "not a path" }\n');
  const module: SuiteModule = { name: 'l', dir, reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) } };

  it('refuses an assumption of its own requirement, an unknown ID, an excluded precondition owner and an evidence that is no path, each with file:line:column', () => {
    let message = '';
    try {
      loadSuites([module], ['l']);
    } catch (e) {
      message = String((e as Error).message);
    }
    expect(message).toMatch(/bad\.yaml:3:\d+: the case judges "L-ONE" itself, so it cannot assume it/);
    expect(message).toMatch(/bad\.yaml:3:\d+: unknown requirement "L-NOPE"/);
    expect(message).toMatch(/bad\.yaml:11:\d+: requirement "L-OFF" is excluded \(not observable\), so no run judges it and nothing can rest on it/);
    expect(message).toMatch(/bad-evidence\.yaml:5:\d+: .*evidence: "not a path" does not match/);
  });
});

describe('suite defaults: a rule every case rests on', () => {
  const dir = mkdtempSync(join(tmpdir(), 'specgate-trust-defaults-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'cases'));
  writeFileSync(join(dir, 'requirements.yaml'), '- { id: D-PREFIX, level: MUST, source: "d.txt#A", text: prefix }\n- { id: D-ONE, level: MUST, source: "d.txt#A", text: one }\n');
  writeFileSync(join(dir, 'suite.yaml'), 'defaults: { assumes: [D-PREFIX] }\n');
  const step = '  steps:\n    - request: { method: GET, url: "http://127.0.0.1:9/" }\n      expect: { status: 200 }\n';
  writeFileSync(join(dir, 'cases', 'c.yaml'), `- id: prefix\n  requirements: [D-PREFIX]\n${step}- id: one\n  requirements: [D-ONE]\n  assumes: [D-PREFIX]\n${step}- id: two\n  requirements: [D-ONE]\n${step}`);
  const module: SuiteModule = { name: 'd', dir, reference: { start: async () => ({ description: 'nothing', vars: {}, stop: async () => undefined }) } };

  it('are added to every case but the ones that judge them, once', () => {
    const [suite] = loadSuites([module], ['d']).suites;
    expect(suite?.cases.map((c) => [c.id, c.assumes])).toEqual([
      ['prefix', undefined],
      ['one', ['D-PREFIX']],
      ['two', ['D-PREFIX']],
    ]);
  });
});
