import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import type { Socket } from 'node:net';

/**
 * How many bytes of its answer a target had sent when a request failed. A connection closed or
 * reset before the first byte means nothing answered (SG_TARGET_UNREACHABLE); closed after part
 * of a status line, of the headers or of the body, it means the answer itself is broken
 * (SG_TARGET_PROTOCOL). undici's errors do not say which, and a pooled socket's byte count runs
 * over every answer it carried, so the count is taken when the request's headers go out on the
 * socket (undici's `undici:client:sendHeaders` channel) and again when the request fails
 * (`undici:request:error`); undici sends one request at a time per connection, so the
 * difference is this request's answer.
 */

/** undici's request object, as the channels publish it (only its identity is used). */
type UndiciRequest = object;

const sentAt = new WeakMap<UndiciRequest, { socket: Socket; bytesRead: number }>();
const received = new WeakMap<object, number>();
let users = 0;

function onSendHeaders(message: unknown): void {
  const { request, socket } = message as { request?: UndiciRequest; socket?: Socket };
  if (request && socket) sentAt.set(request, { socket, bytesRead: socket.bytesRead });
}

function onRequestError(message: unknown): void {
  const { request, error } = message as { request?: UndiciRequest; error?: unknown };
  const start = request ? sentAt.get(request) : undefined;
  if (start && typeof error === 'object' && error !== null) received.set(error, Math.max(0, start.socket.bytesRead - start.bytesRead));
}

/**
 * Starts listening on undici's channels while some client needs it, and returns how to stop: the
 * channels are heard by every undici request of the process, and cost nothing unheard, so they
 * are left once the last client that listens is closed.
 */
export function trackAnswerBytes(): () => void {
  if (users++ === 0) {
    subscribe('undici:client:sendHeaders', onSendHeaders);
    subscribe('undici:request:error', onRequestError);
  }
  let done = false;
  return () => {
    if (done) return;
    done = true;
    if (--users === 0) {
      unsubscribe('undici:client:sendHeaders', onSendHeaders);
      unsubscribe('undici:request:error', onRequestError);
    }
  };
}

/** Bytes of the answer that arrived before `error` ended the request; undefined when unknown. */
export function answerBytesBefore(error: unknown): number | undefined {
  return typeof error === 'object' && error !== null ? received.get(error) : undefined;
}
