import { describe, expect, it } from 'vitest';
import { AdvertisedValues, answerCarrying, type ValueOrigin } from '../../../src/engine/runtime/advertised-values.js';

const origin = (name: string, value: unknown, step: number, more: Partial<ValueOrigin> = {}): ValueOrigin => ({ name, value, step, via: 'POST /start', inAnswer: true, reliedOn: [], ...more });
const names = (os: readonly ValueOrigin[]): string[] => os.map((o) => `${o.name}@${o.step}`);

describe('AdvertisedValues', () => {
  it('names the captured values a step references, and every value an earlier wait used', () => {
    const ledger = new AdvertisedValues();
    ledger.captured(origin('code', 'c1', 1));
    ledger.captured(origin('expires_in', 600, 1));
    ledger.captured(origin('interval', 5, 1));
    ledger.waitedFor(['expires_in', 'not_captured']);
    expect(names(ledger.reliedOnBy(['code', 'base_url'], false).reliedOn)).toEqual(['code@1', 'expires_in@1']);
    // interval was captured but neither used nor waited
    expect(names(ledger.reliedOnBy([], false).reliedOn)).toEqual(['expires_in@1']);
  });

  it('keeps the origin a set: passed on when the source is captured again, and forgets a variable set from the suite', () => {
    const ledger = new AdvertisedValues();
    ledger.captured(origin('user_code', 'AAAA-BBBB', 1));
    ledger.assigned('old_code', ['user_code']);
    ledger.captured(origin('user_code', 'CCCC-DDDD', 3));
    expect(ledger.originsOf(['old_code']).map((o) => o.value)).toEqual(['AAAA-BBBB']);
    ledger.assigned('old_code', []);
    expect(ledger.originsOf(['old_code'])).toEqual([]);
  });

  it('for a check, treats values of the latest capturing step as judged and lists what that step used instead', () => {
    const ledger = new AdvertisedValues();
    const code = origin('code', 'c1', 1);
    ledger.captured(code);
    ledger.captured(origin('interval', 5, 1));
    ledger.captured(origin('new_interval', 5, 4, { reliedOn: [code] }));
    const r = ledger.reliedOnBy(['new_interval', 'interval'], true);
    expect(names(r.judged)).toEqual(['new_interval@4']);
    expect(names(r.reliedOn)).toEqual(['code@1', 'interval@1']);
    // a request step judges its own answer: the same references are all relied on
    expect(names(ledger.reliedOnBy(['new_interval', 'interval'], false).reliedOn)).toEqual(['interval@1', 'new_interval@4']);
  });
});

describe('answerCarrying', () => {
  const answers = [
    { label: 'POST /a', body: { OAuth: { expires_in: '600', device_code: 'd' } } },
    { label: 'POST /b', body: { interval: 5 } },
  ];

  it('finds the latest answer carrying the field with the value, at any depth, compared as text', () => {
    expect(answerCarrying(answers, 'expires_in', 600)?.label).toBe('POST /a');
    expect(answerCarrying(answers, 'interval', 5)?.label).toBe('POST /b');
  });

  it('finds none for a default the answers did not carry, or for a value of another field', () => {
    expect(answerCarrying(answers, 'interval', 10)).toBeUndefined();
    expect(answerCarrying(answers, 'user_code', 'd')).toBeUndefined();
    expect(answerCarrying(answers, 'OAuth', { expires_in: '600' })).toBeUndefined();
  });
});
