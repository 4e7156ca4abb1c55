import { asObject, copy, text, texts, type Json } from './json.js';

/**
 * The settings one account holds (001 D, accounttax, liasettings, shippingsettings). Each
 * starts empty; update (PUT) replaces it; the liasettings actions change one country's entry.
 */
export class AccountSettings {
  private tax: Json;
  private lia: Json;
  private shipping: Json;

  constructor(private readonly accountId: string) {
    this.tax = { rules: [] };
    this.lia = { countrySettings: [] };
    this.shipping = { services: [], postalCodeGroups: [], warehouses: [] };
  }

  getTax(): Json {
    return { ...copy(this.tax), kind: 'content#accountTax', accountId: this.accountId };
  }

  setTax(body: unknown): Json {
    this.tax = copy(asObject(body));
    return this.getTax();
  }

  getLia(): Json {
    return { ...copy(this.lia), kind: 'content#liaSettings', accountId: this.accountId };
  }

  setLia(body: unknown): Json {
    this.lia = copy(asObject(body));
    return this.getLia();
  }

  getShipping(): Json {
    return { ...copy(this.shipping), accountId: this.accountId };
  }

  setShipping(body: unknown): Json {
    this.shipping = copy(asObject(body));
    return this.getShipping();
  }

  /** liasettings.setinventoryverificationcontact */
  setInventoryContact(country: string, contactName: string | undefined, contactEmail: string | undefined): void {
    const c = this.country(country);
    c['inventory'] = {
      ...asObject(c['inventory']),
      ...(contactName === undefined ? {} : { inventoryVerificationContactName: contactName }),
      ...(contactEmail === undefined ? {} : { inventoryVerificationContactEmail: contactEmail }),
      inventoryVerificationContactStatus: 'active',
    };
  }

  /** liasettings.requestinventoryverification */
  requestInventoryVerification(country: string): void {
    const c = this.country(country);
    c['inventory'] = { ...asObject(c['inventory']), status: 'pending' };
  }

  /** liasettings.setposdataprovider */
  setPosDataProvider(country: string, providerId: string | undefined, externalAccountId: string | undefined): void {
    const c = this.country(country);
    if (providerId === undefined) delete c['posDataProvider'];
    else c['posDataProvider'] = { posDataProviderId: providerId, ...(externalAccountId === undefined ? {} : { posExternalAccountId: externalAccountId }) };
  }

  /** liasettings.setomnichannelexperience: answers the experience it set. */
  setOmnichannelExperience(country: string, lsfType: string | undefined, pickupTypes: unknown): Json {
    const experience: Json = { country, ...(lsfType === undefined ? {} : { lsfType }), pickupTypes: texts(pickupTypes) };
    this.country(country)['omnichannelExperience'] = experience;
    return copy(experience);
  }

  /** The entry of one country in the LIA settings, created when missing. */
  private country(code: string): Json {
    const list = Array.isArray(this.lia['countrySettings']) ? (this.lia['countrySettings'] as unknown[]) : [];
    this.lia['countrySettings'] = list;
    const hit = list.find((c) => text(asObject(c)['country']) === code);
    if (hit && typeof hit === 'object') return hit as Json;
    const fresh: Json = { country: code };
    list.push(fresh);
    return fresh;
  }
}
