import { describe, expect, it } from 'vitest';
import { PASS, failing, judge } from '../../helpers/ctx-client-judges.js';
import { ACCESS_1, authorize, call, evidence, exchange, metadata, noMetadata, register, runOf, standardFlow, unauthorized, type Req } from '../../fixtures/ctx-auth/clients/observations.js';

/**
 * The judges of where a client looks for its authorization server and how it starts the flow
 * (spec 000 part C, Endpoints 1-3, Authentication 2 and 5), on hand-made observations.
 */

/** A client of a later revision: protected-resource metadata first, path-aware and OpenID probes, the version header everywhere, `resource=`, no scope. */
function laterRevisionFlow(): Req[] {
  const v = { 'CTX-Protocol-Version': '2025-03-26' };
  return [
    { ...unauthorized(), headers: v },
    { ...noMetadata('GET /.well-known/oauth-protected-resource/ctx'), headers: v },
    { ...noMetadata('GET /.well-known/oauth-protected-resource'), headers: v },
    { ...noMetadata('GET /.well-known/oauth-authorization-server/ctx'), headers: v },
    metadata(),
    { ...noMetadata('GET /.well-known/openid-configuration'), headers: v },
    { ...register(), headers: v },
    { ...authorize({ extra: { resource: 'http://127.0.0.1:5555/ctx' } }), headers: v },
    { ...exchange({ resource: 'http://127.0.0.1:5555/ctx' }), headers: v },
    { ...call(ACCESS_1), headers: { ...v, Authorization: `Bearer ${ACCESS_1}` } },
  ];
}

describe('CTX-CLI-BASE-URL-ROOT', () => {
  it('passes metadata and fallbacks at the host root', () => {
    const flow = [unauthorized(), noMetadata(), register(), authorize(), exchange(), call(ACCESS_1)];
    expect(judge('CTX-CLI-BASE-URL-ROOT', evidence(runOf('standard', standardFlow()), runOf('no-metadata', flow)))).toEqual(PASS);
  });

  it('fails a metadata request under the server URL path, naming the request', () => {
    const flow = standardFlow();
    flow[1] = { ...metadata(), line: 'GET /ctx/.well-known/oauth-authorization-server' };
    expect(judge('CTX-CLI-BASE-URL-ROOT', evidence(runOf('standard', flow)))).toMatchObject(
      failing(/^request #2 GET \/ctx\/\.well-known\/oauth-authorization-server is not the host root's \/\.well-known\/oauth-authorization-server/),
    );
  });

  it('fails fallback endpoints under the server URL path in the no-metadata scenario', () => {
    const flow = [unauthorized(), noMetadata(), register('/ctx/register'), authorize({ path: '/ctx/authorize' }), exchange({}, {}, '/ctx/token')];
    const v = judge('CTX-CLI-BASE-URL-ROOT', evidence(runOf('standard', standardFlow()), runOf('no-metadata', flow)));
    expect(v).toMatchObject(failing(/^no-metadata scenario: request #3 POST \/ctx\/register is not the host root's \/register .*; request #4 GET \/ctx\/authorize .*; request #5 POST \/ctx\/token /));
  });

  it('tolerates the probes of later revisions (path-aware, protected-resource, openid-configuration)', () => {
    expect(judge('CTX-CLI-BASE-URL-ROOT', evidence(runOf('standard', laterRevisionFlow())))).toEqual(PASS);
  });
});

describe('CTX-CLI-DISCOVERY-FIRST', () => {
  it('passes metadata before registration and authorization', () => {
    expect(judge('CTX-CLI-DISCOVERY-FIRST', evidence(runOf('standard', standardFlow())))).toEqual(PASS);
  });

  it('fails an authorization flow with no metadata request', () => {
    const flow = standardFlow().filter((_, i) => i !== 1);
    expect(judge('CTX-CLI-DISCOVERY-FIRST', evidence(runOf('standard', flow)))).toMatchObject(
      failing(/^request #2 POST \/register came before any metadata request \(the client never requested \/\.well-known\/oauth-authorization-server\)/),
    );
  });

  it('fails metadata requested only after registration', () => {
    const flow = [unauthorized(), register(), metadata(), authorize(), exchange()];
    expect(judge('CTX-CLI-DISCOVERY-FIRST', evidence(runOf('standard', flow)))).toMatchObject(failing(/^request #2 POST \/register came before any metadata request \(the first, request #3 GET/));
  });

  it('passes a later-revision client whose protected-resource probes come first', () => {
    expect(judge('CTX-CLI-DISCOVERY-FIRST', evidence(runOf('standard', laterRevisionFlow())))).toEqual(PASS);
  });

  it('passes on the run that shows the order when the other stopped after discovery', () => {
    const stopped = runOf('no-metadata', [unauthorized(), noMetadata()]);
    expect(judge('CTX-CLI-DISCOVERY-FIRST', evidence(runOf('standard', standardFlow()), stopped))).toEqual(PASS);
    expect(judge('CTX-CLI-DISCOVERY-FIRST', evidence(stopped))).toEqual({ unjudged: expect.stringMatching(/^the client requested metadata \(#2 GET .* -> 404\) and then sent no authorization/) });
  });
});

describe('CTX-CLI-METADATA-USED', () => {
  const custom = { authorize: '/oauth2/authorize', token: '/oauth2/token', register: '/oauth2/register' };

  it('passes the advertised endpoints', () => {
    const flow = [unauthorized(), metadata(custom), register('/oauth2/register'), authorize({ path: '/oauth2/authorize' }), exchange({}, {}, '/oauth2/token'), call(ACCESS_1)];
    expect(judge('CTX-CLI-METADATA-USED', evidence(runOf('custom-paths', flow)))).toEqual(PASS);
  });

  it('fails the fallback paths when the metadata advertises others', () => {
    const flow = [unauthorized(), metadata(custom), register('/oauth2/register'), authorize(), exchange({}, {}, '/oauth2/token')];
    expect(judge('CTX-CLI-METADATA-USED', evidence(runOf('custom-paths', flow)))).toMatchObject(
      failing(/^request #4 GET \/authorize is not the advertised authorization_endpoint \/oauth2\/authorize: the client used the fallback path \(the metadata of request #2 GET \/\.well-known\/oauth-authorization-server advertises it\)$/),
    );
  });
});

describe('CTX-CLI-FALLBACK', () => {
  const fallbackFlow = (): Req[] => [unauthorized(), noMetadata(), register(), authorize(), exchange(), call(ACCESS_1)];

  it('passes /register, /authorize and /token at the root', () => {
    expect(judge('CTX-CLI-FALLBACK', evidence(runOf('no-metadata', fallbackFlow())))).toEqual(PASS);
  });

  it('fails a client that stops once discovery finds no metadata, as a revision mismatch', () => {
    const run = runOf('no-metadata', [unauthorized(), noMetadata('GET /.well-known/oauth-protected-resource/ctx'), noMetadata(), noMetadata('GET /.well-known/openid-configuration')]);
    const v = judge('CTX-CLI-FALLBACK', evidence(run));
    expect(v).toMatchObject(failing(/^revision mismatch: with no metadata \(#2 GET \/\.well-known\/oauth-protected-resource\/ctx -> 404, #3 GET \/\.well-known\/oauth-authorization-server -> 404, #4 GET .* -> 404\), the client stopped and sent no request to the fallback endpoints \/authorize, \/token or \/register/));
    expect(v).toMatchObject({ message: expect.stringContaining('set ctx_client_revision') });
  });

  it('is not applicable to a client of a later revision (ctx_client_revision)', () => {
    const run = runOf('no-metadata', [unauthorized(), noMetadata()]);
    expect(judge('CTX-CLI-FALLBACK', { runs: [run], revision: '2025-06-18' })).toEqual({ notApplicable: expect.stringMatching(/^the client implements revision 2025-06-18 \(ctx_client_revision\), later than 2025-03-26/) });
  });

  it('fails other paths than the root fallbacks', () => {
    const flow = [unauthorized(), noMetadata(), register(), authorize({ path: '/oauth2/authorize' }), exchange()];
    expect(judge('CTX-CLI-FALLBACK', evidence(runOf('no-metadata', flow)))).toMatchObject(failing(/^request #4 GET \/oauth2\/authorize is not the fallback \/authorize at the host root/));
  });
});

describe('CTX-CLI-VERSION-HEADER', () => {
  it('passes the version header with 2025-03-26 on discovery', () => {
    expect(judge('CTX-CLI-VERSION-HEADER', evidence(runOf('standard', standardFlow())))).toEqual(PASS);
  });

  it('fails discovery without the header', () => {
    const flow = standardFlow();
    flow[1] = { ...metadata(), headers: {} };
    expect(judge('CTX-CLI-VERSION-HEADER', evidence(runOf('standard', flow)))).toMatchObject(failing(/^request #2 GET \/\.well-known\/oauth-authorization-server carried no CTX-Protocol-Version header$/));
  });

  it('fails another revision unless the client declares it', () => {
    const flow = standardFlow();
    flow[1] = { ...metadata(), headers: { 'CTX-Protocol-Version': '2025-06-18' } };
    expect(judge('CTX-CLI-VERSION-HEADER', evidence(runOf('standard', flow)))).toMatchObject(failing(/carried CTX-Protocol-Version: 2025-06-18, not 2025-03-26 \(if the client implements that later revision, set ctx_client_revision to it\)$/));
    expect(judge('CTX-CLI-VERSION-HEADER', { runs: [runOf('standard', flow)], revision: '2025-06-18' })).toEqual(PASS);
  });

  it('judges the header name the client was told (a profile mapping)', () => {
    const flow = standardFlow();
    flow[1] = { ...metadata(), headers: { 'MCP-Protocol-Version': '2025-03-26' } };
    expect(judge('CTX-CLI-VERSION-HEADER', evidence(runOf('standard', flow, { told: { versionHeader: 'MCP-Protocol-Version' } })))).toEqual(PASS);
    expect(judge('CTX-CLI-VERSION-HEADER', evidence(runOf('standard', flow)))).toMatchObject(failing(/carried no CTX-Protocol-Version header/));
  });

  it('tolerates the header on every request and probes without it', () => {
    expect(judge('CTX-CLI-VERSION-HEADER', evidence(runOf('standard', laterRevisionFlow())))).toEqual(PASS);
  });
});

describe('CTX-CLI-401-STARTS-FLOW', () => {
  it('passes discovery and authorization after the 401', () => {
    expect(judge('CTX-CLI-401-STARTS-FLOW', evidence(runOf('standard', standardFlow())))).toEqual(PASS);
  });

  it('fails a client that gives up after the 401', () => {
    expect(judge('CTX-CLI-401-STARTS-FLOW', evidence(runOf('standard', [unauthorized(), unauthorized()])))).toMatchObject(
      failing(/^request #1 POST \/ctx was answered 401 \(WWW-Authenticate: Bearer realm="ctx"\) and the client started no authorization after it \(it went on with #2 POST \/ctx -> 401\)$/),
    );
  });

  it('fails resource requests between the 401 and the authorization', () => {
    const flow = [unauthorized(), unauthorized(), metadata(), register(), authorize(), exchange()];
    expect(judge('CTX-CLI-401-STARTS-FLOW', evidence(runOf('standard', flow)))).toMatchObject(failing(/before its authorization request \(request #5 GET \/authorize\) the client sent #2 POST \/ctx -> 401 instead of starting the flow/));
  });

  it('cannot judge a client that got no 401', () => {
    expect(judge('CTX-CLI-401-STARTS-FLOW', evidence(runOf('standard', standardFlow().slice(1))))).toEqual({ unjudged: expect.stringMatching(/^no resource request of the client was answered 401/) });
  });

  it('passes a later-revision client', () => {
    expect(judge('CTX-CLI-401-STARTS-FLOW', evidence(runOf('standard', laterRevisionFlow())))).toEqual(PASS);
  });
});

describe('a client of a later revision in the standard scenario', () => {
  it('fails none of the judges of the standard scenario (probes, resource=, the version header everywhere, no scope)', () => {
    const ev = evidence(runOf('standard', laterRevisionFlow()));
    const judged = ['CTX-CLI-BASE-URL-ROOT', 'CTX-CLI-DISCOVERY-FIRST', 'CTX-CLI-VERSION-HEADER', 'CTX-CLI-401-STARTS-FLOW', 'CTX-CLI-PKCE-CHALLENGE', 'CTX-CLI-PKCE-VERIFIER', 'CTX-CLI-REDIRECT-URI', 'CTX-CLI-REDIRECT-URI-SAME', 'CTX-CLI-TOKEN-REQUEST', 'CTX-CLI-CODE-ONCE', 'CTX-CLI-DCR', 'CTX-CLI-DCR-BODY', 'CTX-CLI-BEARER-EVERY', 'CTX-CLI-TOKEN-NOT-IN-QUERY'];
    expect(Object.fromEntries(judged.map((id) => [id, judge(id, ev)]))).toEqual(Object.fromEntries(judged.map((id) => [id, PASS])));
  });
});

describe('CTX-CLI-METADATA-USED, when the client never read the metadata', () => {
  const custom = { authorize: '/oauth2/authorize', token: '/oauth2/token', register: '/oauth2/register' };

  it('is blocked by CTX-CLI-DISCOVERY-FIRST when the client never asked for it', () => {
    const flow = [unauthorized(), register(), authorize(), exchange()];
    expect(judge('CTX-CLI-METADATA-USED', evidence(runOf('custom-paths', flow)))).toEqual({ blockedBy: 'CTX-CLI-DISCOVERY-FIRST', reason: expect.stringMatching(/never requested the metadata document/) });
  });

  it('is blocked by CTX-CLI-BASE-URL-ROOT when it looked below the server path', () => {
    const flow = [unauthorized(), noMetadata('GET /ctx/.well-known/oauth-authorization-server'), register(), authorize(), exchange()];
    expect(judge('CTX-CLI-METADATA-USED', evidence(runOf('custom-paths', flow)))).toEqual({ blockedBy: 'CTX-CLI-BASE-URL-ROOT', reason: expect.stringMatching(/looked for the metadata at \/ctx\/\.well-known\/oauth-authorization-server/) });
  });

  it('still fails a client that read it and used the fallbacks', () => {
    const flow = [unauthorized(), metadata(custom), register('/oauth2/register'), authorize(), exchange({}, {}, '/oauth2/token')];
    expect('ok' in judge('CTX-CLI-METADATA-USED', evidence(runOf('custom-paths', flow)))).toBe(true);
  });
});
