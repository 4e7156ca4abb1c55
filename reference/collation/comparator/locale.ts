/**
 * ICU locale identifiers (as collation documents write them: `fr_CA`, `de@collation=phonebook`)
 * turned into BCP 47 tags (`fr-CA`, `de-u-co-phonebk`), which Node's Intl, ICU4X and the `-u-`
 * keyword form of ICU all read.
 */

/** ICU collation type names whose BCP 47 (`-u-co-`) spelling differs. */
const COLLATION_TYPE_TO_BCP47: Readonly<Record<string, string>> = {
  phonebook: 'phonebk',
  traditional: 'trad',
  dictionary: 'dict',
  gb2312han: 'gb2312',
};

/** An ICU locale split into its BCP 47 language tag and its collation type, if any. */
export interface Bcp47Locale {
  /** Language, script, region and variants only, e.g. `fr-CA`, `en-US-u-va-posix`, `und`. */
  readonly tag: string;
  /** The BCP 47 collation type (`phonebk`, `unihan`, `search`, ...), or undefined for the standard one. */
  readonly collation: string | undefined;
}

export function toBcp47(icuLocale: string): Bcp47Locale {
  const at = icuLocale.indexOf('@');
  const base = at < 0 ? icuLocale : icuLocale.slice(0, at);
  let collation: string | undefined;
  if (at >= 0) {
    for (const keyword of icuLocale.slice(at + 1).split(';')) {
      const [key, value] = keyword.split('=');
      if (key?.toLowerCase() === 'collation' && value !== undefined && value !== 'standard') {
        collation = COLLATION_TYPE_TO_BCP47[value] ?? value;
      }
    }
  }
  let tag: string;
  if (base === 'root' || base === '') {
    tag = 'und';
  } else if (base.endsWith('_POSIX')) {
    // ICU's POSIX variant is spelled as the `va` keyword in BCP 47 (en_US_POSIX -> en-US-u-va-posix).
    tag = `${base.slice(0, -'_POSIX'.length).replaceAll('_', '-')}-u-va-posix`;
  } else {
    tag = base.replaceAll('_', '-');
  }
  return { tag, collation };
}

/** Appends `-u-` keywords (already sorted by key) to a tag that may or may not carry a `-u-` part. */
export function withUnicodeKeywords(tag: string, keywords: readonly string[]): string {
  if (keywords.length === 0) return tag;
  const joined = keywords.join('-');
  const u = tag.indexOf('-u-');
  if (u < 0) return `${tag}-u-${joined}`;
  // Keep BCP 47 canonical order: keys sorted alphabetically inside the one `-u-` extension.
  const existing = tag.slice(u + 3).split('-');
  const pairs: string[][] = [];
  for (let i = 0; i < existing.length; i += 2) pairs.push([existing[i] ?? '', existing[i + 1] ?? '']);
  for (let i = 0; i < keywords.length; i += 2) pairs.push([keywords[i] ?? '', keywords[i + 1] ?? '']);
  pairs.sort((p, q) => (p[0] ?? '').localeCompare(q[0] ?? '', 'en'));
  return `${tag.slice(0, u)}-u-${pairs.map((p) => p.join('-')).join('-')}`;
}
