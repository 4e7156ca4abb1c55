import type { PassiveRule, PassiveRuleFinding, PassiveVerdict, PassiveView } from '../../../src/engine/suite-module.js';
import { METADATA_PATH } from '../checks/client-evidence.js';
import { answerJson, answerType, exchangesOfKind, isObject, metadataDocuments, pathOf, verdict } from './recorded.js';

/** An absolute URL, as RFC 8414 section 2 wants every endpoint (what the live case matches too). */
const ABSOLUTE = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]+/;
/** RFC 8414 section 2: the issuer is an http(s) URL without query or fragment. */
const ISSUER = /^https?:\/\/[^/?#]+(\/[^?#]*)?$/;

/** What is wrong with a metadata document's shape (RFC 8414 sections 2 and 3.2), empty when nothing is. */
function shapeProblems(type: string, doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  if (!type.startsWith('application/json')) out.push(`its content type is ${type || 'missing'}, not application/json`);
  if (typeof doc['issuer'] !== 'string' || doc['issuer'] === '') out.push('it has no issuer');
  const types = doc['response_types_supported'];
  if (!Array.isArray(types) || !types.includes('code')) out.push(`its response_types_supported ${types === undefined ? 'is missing' : 'does not list code'}`);
  for (const k of ['authorization_endpoint', 'token_endpoint']) {
    const v = doc[k];
    if (typeof v !== 'string' || !ABSOLUTE.test(v)) out.push(v === undefined ? `it has no ${k}` : `its ${k} is not an absolute URL`);
  }
  const reg = doc['registration_endpoint'];
  if (reg !== undefined && (typeof reg !== 'string' || !ABSOLUTE.test(reg))) out.push('its registration_endpoint is not an absolute URL');
  return out;
}

/** The path of the issuer's own metadata document (RFC 8414 section 3.1: the well-known part goes between host and path). */
function issuerDocumentPath(issuer: string): string {
  const path = new URL(issuer).pathname.replace(/\/+$/, '');
  return `${METADATA_PATH}${path}`;
}

function judgeMetadata(view: PassiveView): PassiveVerdict[] {
  const root = exchangesOfKind(view, 'metadata');
  const published: PassiveRuleFinding[] = root.filter((x) => x.recorded.status !== 200).map((x) => ({ message: `the host root's metadata document was answered ${x.recorded.status}, not 200 (servers should publish RFC 8414 metadata there)`, expected: 200, actual: x.recorded.status, exchange: x }));
  const docs = metadataDocuments(view).filter(({ x }) => pathOf(x) === METADATA_PATH);
  const shape: PassiveRuleFinding[] = docs.flatMap(({ x, doc }) => {
    const problems = shapeProblems(answerType(x), doc);
    return problems.length ? [{ message: `the metadata document: ${problems.join('; ')}`, exchange: x }] : [];
  });
  // a 200 whose body is no JSON object is a shape failure too
  const notObject: PassiveRuleFinding[] = root.filter((x) => x.recorded.status === 200 && !x.recorded.responseCut && !isObject(answerJson(x))).map((x) => ({ message: 'the metadata answer (200) is not a JSON object', exchange: x }));
  const s256: PassiveRuleFinding[] = docs.flatMap(({ x, doc }) => {
    const methods = doc['code_challenge_methods_supported'];
    return Array.isArray(methods) && methods.includes('S256') ? [] : [{ message: `the metadata document's code_challenge_methods_supported ${methods === undefined ? 'is missing' : 'does not list S256'}`, expected: { $contains: 'S256' }, actual: methods ?? null, exchange: x }];
  });
  // the issuer: its form, and the document at its own well-known location (host aside: a recording
  // proxy names another origin than the issuer's) naming it again
  const all = metadataDocuments(view);
  let issuerJudged = 0;
  const issuer: PassiveRuleFinding[] = docs.flatMap(({ x, doc }): PassiveRuleFinding[] => {
    const iss = doc['issuer'];
    if (typeof iss !== 'string' || iss === '') return [];
    if (!ISSUER.test(iss)) {
      issuerJudged++;
      return [{ message: `the metadata document's issuer ${iss} is not an http(s) URL without query or fragment`, actual: iss, exchange: x }];
    }
    const own = issuerDocumentPath(iss);
    if (own === pathOf(x)) {
      issuerJudged++;
      return [];
    }
    const there = all.filter((d) => pathOf(d.x) === own);
    if (!there.length) return [];
    issuerJudged++;
    return there.flatMap((d) => (d.doc['issuer'] === iss || d.doc['issuer'] === iss.replace(/\/+$/, '') ? [] : [{ message: `the issuer's own metadata document (${own}) names issuer ${String(d.doc['issuer'])}, not ${iss}`, expected: iss, actual: d.doc['issuer'] ?? null, exchange: d.x }]));
  });
  return [
    verdict('CTX-SRV-METADATA', root.length, published, `the recording holds no request for ${METADATA_PATH} at the host root`),
    verdict('CTX-SRV-METADATA-SHAPE', docs.length + notObject.length, [...notObject, ...shape], 'the recording holds no metadata document answered 200 at the host root'),
    verdict('CTX-SRV-METADATA-ISSUER', issuerJudged, issuer, "the recording holds no metadata document whose issuer's own document (RFC 8414 section 3.1) was recorded too"),
    verdict('CTX-SRV-METADATA-S256', docs.length, s256, 'the recording holds no metadata document answered 200 at the host root'),
  ];
}

/**
 * The authorization server metadata (C, Authentication 2; RFC 8414): published at the host root,
 * its required fields and absolute endpoints, its issuer answering for itself, S256 advertised.
 * Judged on every metadata request and document the recording holds.
 */
export const metadata: PassiveRule = {
  description: 'recorded metadata requests at the host root are answered 200 with an RFC 8414 document: issuer, response_types_supported, absolute endpoints, S256, an issuer that answers for itself',
  requirements: ['CTX-SRV-METADATA', 'CTX-SRV-METADATA-SHAPE', 'CTX-SRV-METADATA-ISSUER', 'CTX-SRV-METADATA-S256'],
  judge: judgeMetadata,
};
