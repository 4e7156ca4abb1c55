/**
 * Values a case took from the target's answers, remembered so that a later failure can say
 * which of them it followed from. A device flow waits the `expires_in` the target advertised and
 * then expects `expired_token`: when that fails, the reader needs to know the wait was 600
 * seconds because the target said 600, not because the spec says so.
 *
 * The ledger holds, per variable, where its value came from (the step, what answered, whether
 * the answer carried it); `set:` steps pass origins on to the variables they assign; `wait:`
 * steps add the origins of the values they waited. A failing step is then explained by the
 * origins of the variables it referenced, plus every wait before it (time passed is what an
 * expiry or a polling interval is judged against).
 */

/** Where one variable's value came from. */
export interface ValueOrigin {
  /** The variable the value was captured into. */
  readonly name: string;
  /** The value as captured (later assignments to the variable do not change it). */
  readonly value: unknown;
  /** 1-based number of the step in the case. */
  readonly step: number;
  /** What answered: `POST /login/device/code`, `user agent: approve`. */
  readonly via: string;
  /** The typed check that set the variable (`oauth.deviceStart`), for values set by one. */
  readonly check?: string;
  /** False for a value a check set that none of its answers carried (the check's own default). */
  readonly inAnswer: boolean;
  /** The origins of the captured values the capturing step itself used. */
  readonly reliedOn: readonly ValueOrigin[];
  /** Why the answer's body was not decoded, when the value is missing for that reason. */
  readonly undecoded?: string;
}

/** What a failing step's judgement rests on. */
export interface Reliance {
  /** Values the step judges itself (a typed check's `value: "${taken}"`). */
  judged: ValueOrigin[];
  /** Values it relied on to act or to expect: those it used, and every earlier wait's. */
  reliedOn: ValueOrigin[];
}

/** What one case (or one property attempt, with its own variables) took from the target. */
export class AdvertisedValues {
  private readonly origins = new Map<string, readonly ValueOrigin[]>();
  private readonly waited: ValueOrigin[] = [];
  /** The latest step that took values from the target. */
  private latest = 0;

  /** `name` now holds a value taken from the target's answer. */
  captured(origin: ValueOrigin): void {
    this.origins.set(origin.name, [origin]);
    this.latest = Math.max(this.latest, origin.step);
  }

  /**
   * `name` was assigned by a `set:` step from `sources`: it carries their origins, or none when
   * the expression used no value of the target's (the variable no longer holds one).
   */
  assigned(name: string, sources: readonly string[]): void {
    const from = this.originsOf(sources);
    if (from.length) this.origins.set(name, from);
    else this.origins.delete(name);
  }

  /** A `wait:` let the time named by `names` pass. */
  waitedFor(names: readonly string[]): void {
    for (const o of this.originsOf(names)) if (!this.waited.includes(o)) this.waited.push(o);
  }

  /** The origins of the values `names` hold, as far as they came from the target. */
  originsOf(names: readonly string[]): ValueOrigin[] {
    const out: ValueOrigin[] = [];
    for (const n of names) for (const o of this.origins.get(n) ?? []) if (!out.includes(o)) out.push(o);
    return out;
  }

  /**
   * The origins a step's judgement relies on: those of the variables it references and of every
   * earlier wait. A typed check judges values captured just before it (`value: "${taken}"`):
   * those are the observation under judgement, not something relied on, so a variable the
   * latest capturing step took is replaced by the values that step itself used.
   */
  reliedOnBy(names: readonly string[], judgesCaptures: boolean): Reliance {
    const judged: ValueOrigin[] = [];
    const out: ValueOrigin[] = [];
    const add = (o: ValueOrigin): void => {
      if (!out.includes(o)) out.push(o);
    };
    for (const o of this.originsOf(names)) {
      if (judgesCaptures && o.step === this.latest) {
        judged.push(o);
        o.reliedOn.forEach(add);
      } else add(o);
    }
    this.waited.forEach(add);
    // a value both judged and waited (a check judging the interval it waited) is judged
    return { judged, reliedOn: out.filter((o) => !judged.includes(o)).sort((a, b) => a.step - b.step) };
  }
}

/** One answer the target gave while a typed check ran: what answered, and its decoded body. */
export interface HeardAnswer {
  label: string;
  body: unknown;
}

/** How many nodes of an answer are searched for a value (a body may be large; fields sit near the top). */
const SEARCH_NODES = 2000;

/**
 * The answer, latest first, that carries `value` under the field `name` at any depth (an XML
 * answer nests its fields in an element), compared as text: a check may turn a form body's
 * `"600"` into 600. Undefined when none does, so the check set the value itself.
 */
export function answerCarrying(answers: readonly HeardAnswer[], name: string, value: unknown): HeardAnswer | undefined {
  if (!['string', 'number', 'bigint', 'boolean'].includes(typeof value)) return undefined;
  const text = String(value);
  for (let i = answers.length - 1; i >= 0; i--) {
    const a = answers[i];
    if (a && carries(a.body, name, text)) return a;
  }
  return undefined;
}

function carries(body: unknown, name: string, text: string): boolean {
  const queue: unknown[] = [body];
  for (let seen = 0; queue.length && seen < SEARCH_NODES; seen++) {
    const v = queue.shift();
    if (Array.isArray(v)) queue.push(...v);
    else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if (k === name && ['string', 'number', 'bigint', 'boolean'].includes(typeof x) && String(x) === text) return true;
        if (x !== null && typeof x === 'object') queue.push(x);
      }
    }
  }
  return false;
}
