import { whitelabelById } from './catalog.js';
import { DAY_MS, formatDateTime } from './dates.js';
import type { PlatformRandom } from './random.js';
import { POSTBACK_TYPE_SIGNUP, type Offer, type Postback } from './types.js';

export const POSTBACK_COUNT = 60;
export const FIRST_POSTBACK_ID = 501;

/** The affiliates owning postbacks (the key's own account, and one of its sub-accounts). */
const OWNERS = [
  { affiliateEmail: 'partners@northwind-media.example', affiliateName: 'Northwind Media', affiliateHash: '3f9a6c2e8b1d4f7a0c5e9b2d6a8f1c3e' },
  { affiliateEmail: 'team@northwind-mobile.example', affiliateName: 'Northwind Mobile', affiliateHash: '8c1e5a9f3b7d2c6e0a4f8b1d5c9e3a7f' },
];
/** Types beyond Signup = 1 are not shown in the spec; the seed uses 2-4 as other kinds. */
const TYPES = [POSTBACK_TYPE_SIGNUP, POSTBACK_TYPE_SIGNUP, 2, 3, 4];
const TRACKERS = ['https://tracker.example/pb', 'https://track.partner.example/postback', 'https://stats.example/s2s'];

/**
 * The seeded postbacks, every field of the spec's table set. The first is an active Signup
 * postback of the first offer: a registration on that offer returns it in `details.postbacks`.
 */
export function seedPostbacks(rng: PlatformRandom, offers: readonly Offer[], now: number): Postback[] {
  const out: Postback[] = [];
  for (let i = 0; i < POSTBACK_COUNT; i++) {
    const offer = i === 0 ? offers[0] : rng.pick(offers);
    if (!offer) break;
    const type = i === 0 ? POSTBACK_TYPE_SIGNUP : rng.pick(TYPES);
    const owner = rng.chance(0.75) ? OWNERS[0] : OWNERS[1];
    const tracker = rng.pick(TRACKERS);
    out.push({
      ID: FIRST_POSTBACK_ID + i,
      projectID: offer.id,
      whitelabelID: offer.campaignId,
      title: `${offer.name} ${type === POSTBACK_TYPE_SIGNUP ? 'signup' : `event ${type}`} #${i + 1}`,
      type,
      url: `${tracker}?click={custom1}&lead={leadRequestIDEncoded}&n=${i + 1}`,
      check_condition: rng.chance(0.5) ? '' : `country=${rng.pick(['DE', 'GB', 'FR', 'BR'])}`,
      time_registered: formatDateTime(Math.floor(now / 1000) * 1000 - rng.int(1, 400) * DAY_MS - rng.int(0, 86_399) * 1000),
      status: i === 0 ? 1 : rng.pick([0, 1, 1]),
      comment: rng.chance(0.5) ? '' : rng.pick(['main tracker', 'backup', 'for the spring campaign']),
      amount: type === POSTBACK_TYPE_SIGNUP ? 0 : rng.money(10, 300),
      event: rng.int(1, 3),
      projectTitle: offer.name,
      hash: rng.hex(32),
      whitelabelName: whitelabelById(offer.campaignId)?.name ?? '',
      ...(owner ?? OWNERS[0] ?? { affiliateEmail: '', affiliateName: '', affiliateHash: '' }),
    });
  }
  return out;
}
