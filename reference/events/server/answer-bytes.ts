import type { Answer } from './answers.js';

/** What an answer made by {@link answerWithBytes} keeps while its body is untouched. */
interface Ready {
  bytes: () => Buffer;
  /** The accessor `body` was made with: another one in its place means the body was replaced. */
  getter: () => unknown;
}

/**
 * Answers whose body nobody has looked at since the handler made it. Keyed by the answer object
 * itself: a copy of the answer (`{...a, body}`, what the variants of the service built on the
 * `override` hook return) is another object, so it is not found here.
 */
const UNTOUCHED = new WeakMap<Answer, Ready>();

/**
 * An answer whose body's JSON text (as UTF-8 bytes) can be written without building the body: a
 * list page copied together from each event's kept bytes (see monitor-view-bytes.ts). The body
 * object is still there for whoever asks: `object` builds it on the first read of `body`. From
 * that read on (or any assignment to `body`) the bytes are forgotten and the answer is written
 * from the object, since whoever read the object may change it in place, and bytes made for
 * the body as it was would hide that. `bytes` must give exactly the UTF-8 of `jsonText(object())`.
 */
export function answerWithBytes(status: number, object: () => unknown, bytes: () => Buffer): Answer {
  let body: unknown;
  let built = false;
  const answer: Answer = {
    status,
    get body(): unknown {
      UNTOUCHED.delete(answer);
      if (!built) {
        body = object();
        built = true;
      }
      return body;
    },
    set body(value: unknown) {
      UNTOUCHED.delete(answer);
      body = value;
      built = true;
    },
  };
  const getter = Object.getOwnPropertyDescriptor(answer, 'body')?.get;
  if (getter) UNTOUCHED.set(answer, { bytes, getter });
  return answer;
}

/**
 * The bytes of `a`'s body when it was made by {@link answerWithBytes} and its body was neither
 * read, replaced nor removed since; otherwise undefined (write `jsonText(a.body)`). Looks without
 * reading `body`.
 */
export function untouchedBytes(a: Answer): Buffer | undefined {
  const ready = UNTOUCHED.get(a);
  if (ready === undefined) return undefined;
  // `delete a.body` or Object.defineProperty put another body in place without calling the
  // accessor: the body the bytes were made for is gone, so are the bytes
  if (Object.getOwnPropertyDescriptor(a, 'body')?.get !== ready.getter) {
    UNTOUCHED.delete(a);
    return undefined;
  }
  return ready.bytes();
}
