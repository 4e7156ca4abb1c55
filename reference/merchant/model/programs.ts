import { asObject, copy, text, type Json } from './json.js';

interface RegionStatus {
  regionCodes: string[];
  eligibilityStatus: string;
  reviewEligibilityStatus: string;
}

/**
 * A merchant program with a status per region (001 D, freelistingsprogram and
 * shoppingadsprogram): every region starts approved; requesting a review puts the region under
 * review.
 */
export class RegionalProgram {
  private readonly regions: RegionStatus[];

  constructor(regionCodes: string[]) {
    this.regions = regionCodes.map((code) => ({ regionCodes: [code], eligibilityStatus: 'APPROVED', reviewEligibilityStatus: 'ELIGIBLE' }));
  }

  status(): Json {
    return { globalState: 'ENABLED', regionStatuses: copy(this.regions) };
  }

  /** Requests a review of one region (`body.regionCode`); a region the program does not have is added. */
  requestReview(body: unknown): void {
    const code = text(asObject(body)['regionCode']);
    if (code === undefined) return;
    const region = this.regions.find((r) => r.regionCodes.includes(code));
    if (region) region.eligibilityStatus = 'UNDER_REVIEW';
    else this.regions.push({ regionCodes: [code], eligibilityStatus: 'UNDER_REVIEW', reviewEligibilityStatus: 'ELIGIBLE' });
  }
}

/**
 * Checkout settings of the free listings program (001 D, freelistingsprogram.checkoutsettings):
 * insert enrolls the merchant; get answers while it is enrolled; delete removes the settings
 * and unenrolls it.
 */
export class Checkout {
  private settings: Json | undefined;

  constructor(private readonly merchantId: string) {}

  enroll(body: unknown): Json {
    const b = copy(asObject(body));
    this.settings = {
      ...b,
      merchantId: this.merchantId,
      enrollmentState: 'ENROLLED',
      reviewState: 'APPROVED',
      effectiveEnrollmentState: 'ENROLLED',
      effectiveReviewState: 'APPROVED',
      ...(b['uriSettings'] === undefined ? {} : { effectiveUriSettings: copy(b['uriSettings']) }),
    };
    return copy(this.settings);
  }

  /** The settings while enrolled. */
  get(): Json | undefined {
    return this.settings === undefined ? undefined : copy(this.settings);
  }

  /** Unenrolls; false when the merchant was not enrolled. */
  unenroll(): boolean {
    const was = this.settings !== undefined;
    this.settings = undefined;
    return was;
  }
}
