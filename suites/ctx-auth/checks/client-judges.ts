import { judgeCodeOnce, judgeRedirectUri, judgeRedirectUriSame, judgeStateChecked, judgeTokenRequest } from './client-code-judges.js';
import { judge401StartsFlow, judgeBaseUrlRoot, judgeDiscoveryFirst, judgeFallback, judgeMetadataUsed, judgeVersionHeader } from './client-discovery-judges.js';
import type { ClientEvidence } from './client-evidence.js';
import { judgePkceChallenge, judgePkceFresh, judgePkceVerifier } from './client-pkce-judges.js';
import { judgeDcr, judgeDcrBody, judgePreconfiguredClient } from './client-registration-judges.js';
import { judgeBearerEvery, judgeExpiredRestart, judgeRefresh, judgeTokenNotInQuery } from './client-token-judges.js';
import { acrossRuns, notingStops, type ClientJudge, type ClientVerdict } from './client-verdicts.js';

/**
 * One judge per client requirement of the ctx-auth suite (CTX-CLI-*), each over the runs of the
 * scenarios its case names. A verdict that is not a pass says when a client was stopped by the
 * harness.
 */
const BY_REQUIREMENT: Readonly<Record<string, ClientJudge>> = {
  'CTX-CLI-BASE-URL-ROOT': acrossRuns(judgeBaseUrlRoot),
  'CTX-CLI-DISCOVERY-FIRST': acrossRuns(judgeDiscoveryFirst),
  'CTX-CLI-METADATA-USED': acrossRuns(judgeMetadataUsed),
  'CTX-CLI-FALLBACK': acrossRuns(judgeFallback),
  'CTX-CLI-VERSION-HEADER': acrossRuns(judgeVersionHeader),
  'CTX-CLI-401-STARTS-FLOW': acrossRuns(judge401StartsFlow),
  'CTX-CLI-PKCE-CHALLENGE': acrossRuns(judgePkceChallenge),
  'CTX-CLI-PKCE-VERIFIER': acrossRuns(judgePkceVerifier),
  'CTX-CLI-PKCE-FRESH': judgePkceFresh,
  'CTX-CLI-STATE-CHECKED': acrossRuns(judgeStateChecked),
  'CTX-CLI-REDIRECT-URI': acrossRuns(judgeRedirectUri),
  'CTX-CLI-REDIRECT-URI-SAME': acrossRuns(judgeRedirectUriSame),
  'CTX-CLI-TOKEN-REQUEST': acrossRuns(judgeTokenRequest),
  'CTX-CLI-CODE-ONCE': acrossRuns(judgeCodeOnce),
  'CTX-CLI-DCR': acrossRuns(judgeDcr),
  'CTX-CLI-DCR-BODY': acrossRuns(judgeDcrBody),
  'CTX-CLI-PRECONFIGURED-CLIENT': acrossRuns(judgePreconfiguredClient),
  'CTX-CLI-BEARER-EVERY': acrossRuns(judgeBearerEvery),
  'CTX-CLI-TOKEN-NOT-IN-QUERY': acrossRuns(judgeTokenNotInQuery),
  'CTX-CLI-EXPIRED-RESTART': acrossRuns(judgeExpiredRestart),
  'CTX-CLI-REFRESH': acrossRuns(judgeRefresh),
};

export const CLIENT_JUDGES: Readonly<Record<string, ClientJudge>> = Object.fromEntries(
  Object.entries(BY_REQUIREMENT).map(([id, judge]) => [id, (evidence: ClientEvidence): ClientVerdict => notingStops(judge(evidence), evidence.runs)]),
);

/** The client requirement IDs, in catalog order. */
export const CLIENT_REQUIREMENT_IDS: readonly string[] = Object.keys(BY_REQUIREMENT);
