import type { Clock } from '../../../src/engine/clock.js';
import { SpecgateError } from '../../../src/errors.js';
import { autologinTarget, redirectUrlOf, shapeName, shapeOf, type AutologinTarget } from './autologin.js';
import { advertiserById, AFFILIATE_IDS, BROWSERS, COUNTRIES, firstByKey, PLATFORMS } from './catalog.js';
import { queryConversions } from './conversions-query.js';
import type { AffiliateData } from './data.js';
import { queryIncome, type IncomeSummary } from './income-query.js';
import { LeadIds } from './lead-ids.js';
import { queryLeads, type ListPage } from './leads-query.js';
import { queryOffers, type OffersPage } from './offers-query.js';
import { done, invalid, notFound, type Outcome } from './outcome.js';
import { queryPostbacks } from './postbacks-query.js';
import type { QueryLike } from './query-reader.js';
import { offerFor, registrationProblems, type RegistrationDetails } from './registration.js';
import { PlatformRandom } from './random.js';
import { CASE_TWIN_INDEX, seedLeads } from './seed-leads.js';
import { seedOffers } from './seed-offers.js';
import { seedPostbacks } from './seed-postbacks.js';
import { POSTBACK_TYPE_SIGNUP, type AutologinShape, type Conversion, type Lead, type Offer, type Postback } from './types.js';

/** The seed a model uses unless told. */
export const DEFAULT_AFFILIATE_SEED = 5001;

export interface AffiliateModelOptions {
  /** The run's clock: the seed lies in the 60 days before its now, registrations happen at its now. */
  clock: Clock;
  seed?: number;
  /** Where autologin targets and redirects point (every URL is below it). The server sets it when absent. */
  landingUrl?: string;
}

/** How many records of each kind the model holds. */
export interface AffiliateCounts {
  offers: number;
  leads: number;
  conversions: number;
  postbacks: number;
}

/**
 * The affiliate lead platform of spec 001 part E in memory: offers, leads, conversions and
 * postbacks seeded deterministically for a seed on the run's clock, lead registration (E1),
 * autologin targets (E2) and the list queries (E3-E7). It knows no HTTP.
 */
export class AffiliateModel implements AffiliateData {
  readonly clock: Clock;
  readonly seed: number;
  /** Below which every autologin and redirect URL lies. */
  landingUrl: string | undefined;
  readonly offers: readonly Offer[];
  readonly leads: Lead[];
  readonly conversions: Conversion[];
  readonly postbacks: readonly Postback[];
  private readonly rng: PlatformRandom;
  private readonly ids: LeadIds;
  private readonly byId = new Map<string, Lead>();
  private readonly offerOf: ReadonlyMap<number, Offer>;
  private nextCustomer: number;

  constructor(opts: AffiliateModelOptions) {
    this.clock = opts.clock;
    this.seed = opts.seed ?? DEFAULT_AFFILIATE_SEED;
    this.landingUrl = opts.landingUrl;
    this.rng = new PlatformRandom(this.seed);
    this.ids = new LeadIds(this.rng);
    const now = opts.clock.now();
    this.offers = seedOffers(this.rng);
    const seeded = seedLeads(this.rng, this.ids, this.offers, now);
    this.leads = seeded.leads;
    this.conversions = seeded.conversions;
    this.postbacks = seedPostbacks(this.rng, this.offers, now);
    for (const lead of this.leads) this.byId.set(lead.id, lead);
    this.offerOf = firstByKey(this.offers, (o) => o.id);
    this.nextCustomer = 4_000_001 + this.leads.length;
  }

  offerById(id: number): Offer | undefined {
    return this.offerOf.get(id);
  }

  leadById(id: string): Lead | undefined {
    return this.byId.get(id);
  }

  counts(): AffiliateCounts {
    return { offers: this.offers.length, leads: this.leads.length, conversions: this.conversions.length, postbacks: this.postbacks.length };
  }

  /** E3. */
  listOffers(q: QueryLike): Outcome<OffersPage> {
    return queryOffers(this, q);
  }

  /** E4. */
  listLeads(q: QueryLike): Outcome<ListPage> {
    return queryLeads(this, q);
  }

  /** E5. */
  listConversions(q: QueryLike): Outcome<ListPage> {
    return queryConversions(this, q);
  }

  /** E6. */
  income(q: QueryLike): Outcome<IncomeSummary> {
    return queryIncome(this, q);
  }

  /** E7. */
  listPostbacks(q: QueryLike): Outcome<ListPage> {
    return queryPostbacks(this, q);
  }

  private landing(): string {
    if (this.landingUrl === undefined) throw new SpecgateError('SG_CONFIG', 'the affiliate model has no landingUrl; pass one, or let the reference server set it');
    return this.landingUrl;
  }

  /** E2: the autologin target of a lead, by its exact (case-sensitive) ID. */
  autologin(leadRequestID: string | undefined): Outcome<AutologinTarget> {
    if (leadRequestID === undefined || leadRequestID === '') return invalid('leadRequestID is required');
    const lead = this.byId.get(leadRequestID);
    if (!lead) return notFound(`no lead request ${JSON.stringify(leadRequestID)}`);
    return done(this.targetOf(lead));
  }

  targetOf(lead: Lead): AutologinTarget {
    const offer = this.offerById(lead.offerId);
    return autologinTarget(lead, offer ? advertiserById(offer.advertiserId) : undefined, this.landing(), this.seed);
  }

  /**
   * E1: validates a lead request (see {@link registrationProblems}), stores the lead (signed
   * up now, no deposit, the next autologin shape) and answers its details: a new unique ID,
   * the offer and its advertiser, the offer's active Signup postbacks, and the redirect URL.
   */
  register(fields: Readonly<Record<string, string>>): Outcome<RegistrationDetails> {
    const problems = registrationProblems(fields);
    if (problems.length) return invalid(...problems);
    const offer = offerFor(fields, this.offers);
    if (!offer) return invalid('no offer to register the lead with');
    const text = (name: string): string | null => (fields[name] !== undefined && fields[name] !== '' ? (fields[name] ?? null) : null);
    const { password: _password, ...kept } = fields;
    const lead: Lead = {
      id: this.ids.next(),
      offerId: offer.id,
      countryCode: this.rng.pick(COUNTRIES).code,
      signupMs: Math.floor(this.clock.now() / 1000) * 1000,
      isSmartClick: false,
      hasFTD: false,
      custom: [text('custom1'), text('custom2'), text('custom3'), text('custom4'), text('custom5')],
      customerID: String(this.nextCustomer++),
      saleStatus: null,
      platform: this.rng.pick(PLATFORMS),
      browser: this.rng.pick(BROWSERS),
      isTest: false,
      affiliateId: AFFILIATE_IDS[0] ?? 101,
      cost: 0,
      shape: shapeOf(this.leads.length),
      registration: kept,
    };
    this.leads.push(lead);
    this.byId.set(lead.id, lead);
    const advertiser = advertiserById(offer.advertiserId);
    const target = this.targetOf(lead);
    return done({
      leadRequest: { ID: lead.id },
      advertiser: { name: advertiser?.name ?? '', logo: advertiser?.logo ?? '' },
      offer: { ID: String(offer.id), name: offer.name, hash: offer.hash },
      postbacks: this.postbacks.filter((p) => p.projectID === offer.id && p.type === POSTBACK_TYPE_SIGNUP && p.status === 1).map((p) => ({ ID: p.ID, type: p.type, url: p.url.replace('{leadRequestIDEncoded}', lead.id).replace('{custom1}', lead.custom[0] ?? '') })),
      redirect: { url: redirectUrlOf(target) },
    });
  }

  /** The seeded pair of lead IDs that differ in letter case only. */
  caseTwins(): [string, string] {
    const a = this.leads[CASE_TWIN_INDEX]?.id ?? '';
    const b = this.leads[CASE_TWIN_INDEX + 1]?.id ?? '';
    return [a, b];
  }

  /** The first seeded real lead whose autologin target has this shape. */
  leadWithShape(shape: AutologinShape): Lead | undefined {
    return this.leads.find((l) => shapeName(l.shape) === shapeName(shape) && !l.registration);
  }
}
