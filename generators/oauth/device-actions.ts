import fc from 'fast-check';

/**
 * Sequences of device-flow actions for model-based comparison (spec 000, B, States and
 * transitions; B, Errors): polls at chosen offsets from the interval, faulty polls, the user
 * entering and authorizing or cancelling, and time passing (up to past the 900 s expiry).
 */
export type DeviceAction =
  | { kind: 'poll'; offset: number }
  | { kind: 'poll-fault'; fault: 'grant_type' | 'client_id' | 'device_code' }
  | { kind: 'approve' }
  | { kind: 'deny' }
  | { kind: 'enter-again' }
  | { kind: 'wait'; seconds: number };

export function deviceAction(): fc.Arbitrary<DeviceAction> {
  return fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min: -4, max: 3 }).map((offset): DeviceAction => ({ kind: 'poll', offset })) },
    { weight: 1, arbitrary: fc.constantFrom('grant_type', 'client_id', 'device_code').map((fault): DeviceAction => ({ kind: 'poll-fault', fault })) },
    { weight: 1, arbitrary: fc.constant<DeviceAction>({ kind: 'approve' }) },
    { weight: 1, arbitrary: fc.constant<DeviceAction>({ kind: 'deny' }) },
    { weight: 1, arbitrary: fc.constant<DeviceAction>({ kind: 'enter-again' }) },
    { weight: 1, arbitrary: fc.constantFrom(30, 200, 450, 901).map((seconds): DeviceAction => ({ kind: 'wait', seconds })) },
  );
}

export function deviceActions(): fc.Arbitrary<DeviceAction[]> {
  return fc.array(deviceAction(), { minLength: 1, maxLength: 10 });
}
