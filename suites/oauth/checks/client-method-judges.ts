import type { ApiView } from './client-api-judges.js';
import { isClientEndpoint, specMethod, toExchange } from './client-log.js';
import { PASS, fail, unjudged, type Verdict } from '../../../src/engine/checks/contract.js';

/**
 * OAUTH-CLIENT-HTTP-METHOD: each endpoint the application calls itself is called with the
 * method spec 000 part B gives it (Endpoints 2 and 5: POST {auth_url}/login/oauth/access_token;
 * Endpoints 4: POST {auth_url}/login/device/code; Endpoints 3: GET {api_url}/user). The
 * authorization request is left out: the browser, not the application, sends it (a GET of the
 * printed URL). The runs keep requests of every method on these paths, so a token request
 * sent by GET is failed here, while the judges that read the exchange itself find none and
 * leave their requirements untested.
 */
export function judgeHttpMethod(v: ApiView): Verdict {
  const sent = v.requests.filter(isClientEndpoint);
  if (!sent.length) return unjudged(v.problem ?? 'the client sent no request to the token endpoint, the device code endpoint or GET {api_url}/user');
  for (const e of sent) {
    const want = specMethod(e.path);
    if (want !== undefined && e.method !== want) {
      return fail(`the client sent ${e.method} ${e.path}; the spec's endpoint is ${want} ${e.path}`, {
        expected: `${want} ${e.path}`,
        actual: `${e.method} ${e.path}`,
        exchange: toExchange(e, v.t0),
      });
    }
  }
  return PASS;
}
