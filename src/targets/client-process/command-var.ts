import { SpecgateError } from '../../errors.js';

/**
 * The client application under test, from the variable a client-side suite keeps it in
 * (`merchant_client_command`, set by `--merchant-client` or a profile, and by the embedded
 * reference to its reference client). `how` tells the user how to give one.
 */
export function clientCommandVar(vars: Readonly<Record<string, unknown>>, name: string, how: string): unknown {
  const v = vars[name];
  if (v === undefined || v === '') throw new SpecgateError('SG_CONFIG', `no client to judge: give ${how}`);
  return v;
}
