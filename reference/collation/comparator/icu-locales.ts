import type { Alternate, CaseFirst } from '../types.js';

/**
 * The locales a collation document may name, and the defaults each one brings.
 *
 * Generated once from ICU 72 (the ICU the differential targets run): every locale ICU lists as
 * having collation data, each with every `@collation=` type ICU offers for it, kept when ICU's
 * "valid locale" for the opened collator is exactly the requested identifier. That is the rule the
 * best-known document database applies: `fr_FR`, `EN`, `en-US` (BCP 47 spelling), `no` (ICU turns
 * it into `nb`) and `de@collation=foo` are refused because ICU would have used another locale.
 * `root` opens ICU's root collator under its own name and is accepted too; the empty string is not.
 *
 * Every locale here has strength 3, caseLevel off, numericOrdering off and maxVariable punct by
 * default. They differ only in normalization (on for the `NORMALIZING` list) and in
 * the four exceptions listed after it.
 */

const PLAIN =
  'af af@collation=emoji af@collation=eor am am@collation=emoji am@collation=eor ar ' +
  'ar@collation=compat ar@collation=emoji ar@collation=eor ar_SA ar_SA@collation=compat ' +
  'ar_SA@collation=emoji ar_SA@collation=eor as@collation=emoji as@collation=eor az ' +
  'az@collation=emoji az@collation=eor be be@collation=emoji be@collation=eor bg ' +
  'bg@collation=emoji bg@collation=eor bn@collation=emoji bn@collation=eor bo@collation=emoji ' +
  'bo@collation=eor br br@collation=emoji br@collation=eor bs bs@collation=emoji ' +
  'bs@collation=eor bs_Cyrl bs_Cyrl@collation=emoji bs_Cyrl@collation=eor ca ' +
  'ca@collation=emoji ca@collation=eor ceb ceb@collation=emoji ceb@collation=eor chr ' +
  'chr@collation=emoji chr@collation=eor cs cs@collation=emoji cs@collation=eor cy ' +
  'cy@collation=emoji cy@collation=eor da@collation=emoji da@collation=eor de ' +
  'de@collation=emoji de@collation=eor de@collation=phonebook de_AT de_AT@collation=emoji ' +
  'de_AT@collation=eor de_AT@collation=phonebook dsb dsb@collation=emoji dsb@collation=eor dz ' +
  'dz@collation=emoji dz@collation=eor ee ee@collation=emoji ee@collation=eor ' +
  'el@collation=emoji el@collation=eor en en@collation=emoji en@collation=eor en_US ' +
  'en_US@collation=emoji en_US@collation=eor en_US_POSIX en_US_POSIX@collation=emoji ' +
  'en_US_POSIX@collation=eor eo eo@collation=emoji eo@collation=eor es es@collation=emoji ' +
  'es@collation=eor es@collation=traditional et et@collation=emoji et@collation=eor ' +
  'fa@collation=emoji fa@collation=eor fa_AF@collation=emoji fa_AF@collation=eor ff ' +
  'ff@collation=emoji ff@collation=eor ff_Adlm ff_Adlm@collation=emoji ff_Adlm@collation=eor ' +
  'fi fi@collation=emoji fi@collation=eor fi@collation=traditional fil fil@collation=emoji ' +
  'fil@collation=eor fo fo@collation=emoji fo@collation=eor fr fr@collation=emoji ' +
  'fr@collation=eor fr_CA@collation=emoji fr_CA@collation=eor fy fy@collation=emoji ' +
  'fy@collation=eor ga ga@collation=emoji ga@collation=eor gl gl@collation=emoji ' +
  'gl@collation=eor gu@collation=emoji gu@collation=eor ha ha@collation=emoji ' +
  'ha@collation=eor haw haw@collation=emoji haw@collation=eor he@collation=emoji ' +
  'he@collation=eor he_IL@collation=emoji he_IL@collation=eor hi@collation=emoji ' +
  'hi@collation=eor hr hr@collation=emoji hr@collation=eor hsb hsb@collation=emoji ' +
  'hsb@collation=eor hu hu@collation=emoji hu@collation=eor hy hy@collation=emoji ' +
  'hy@collation=eor id id@collation=emoji id@collation=eor id_ID id_ID@collation=emoji ' +
  'id_ID@collation=eor ig@collation=emoji ig@collation=eor is is@collation=emoji ' +
  'is@collation=eor it it@collation=emoji it@collation=eor ja ja@collation=emoji ' +
  'ja@collation=eor ja@collation=unihan ka ka@collation=emoji ka@collation=eor kk ' +
  'kk@collation=emoji kk@collation=eor kl kl@collation=emoji kl@collation=eor ' +
  'km@collation=emoji km@collation=eor kn@collation=emoji kn@collation=eor ko ' +
  'ko@collation=emoji ko@collation=eor ko@collation=unihan kok@collation=emoji ' +
  'kok@collation=eor ku ku@collation=emoji ku@collation=eor ky ky@collation=emoji ' +
  'ky@collation=eor lb lb@collation=emoji lb@collation=eor lkt lkt@collation=emoji ' +
  'lkt@collation=eor ln ln@collation=emoji ln@collation=eor ln@collation=phonetic lo ' +
  'lo@collation=emoji lo@collation=eor lt lt@collation=emoji lt@collation=eor lv ' +
  'lv@collation=emoji lv@collation=eor mk mk@collation=emoji mk@collation=eor ml ' +
  'ml@collation=emoji ml@collation=eor mn mn@collation=emoji mn@collation=eor ' +
  'mr@collation=emoji mr@collation=eor ms ms@collation=emoji ms@collation=eor ' +
  'mt@collation=emoji mt@collation=eor my@collation=emoji my@collation=eor nb ' +
  'nb@collation=emoji nb@collation=eor nb_NO nb_NO@collation=emoji nb_NO@collation=eor ne ' +
  'ne@collation=emoji ne@collation=eor nl nl@collation=emoji nl@collation=eor nn ' +
  'nn@collation=emoji nn@collation=eor no@collation=emoji no@collation=eor om ' +
  'om@collation=emoji om@collation=eor or@collation=emoji or@collation=eor pa@collation=emoji ' +
  'pa@collation=eor pa_Guru@collation=emoji pa_Guru@collation=eor pa_Guru_IN@collation=emoji ' +
  'pa_Guru_IN@collation=eor pl pl@collation=emoji pl@collation=eor ps@collation=emoji ' +
  'ps@collation=eor pt pt@collation=emoji pt@collation=eor ro ro@collation=emoji ' +
  'ro@collation=eor root ru ru@collation=emoji ru@collation=eor sa sa@collation=emoji ' +
  'sa@collation=eor se se@collation=emoji se@collation=eor si@collation=emoji ' +
  'si@collation=eor sk sk@collation=emoji sk@collation=eor sl sl@collation=emoji ' +
  'sl@collation=eor smn smn@collation=emoji smn@collation=eor sq sq@collation=emoji ' +
  'sq@collation=eor sr sr@collation=emoji sr@collation=eor sr_Cyrl sr_Cyrl@collation=emoji ' +
  'sr_Cyrl@collation=eor sr_Cyrl_BA sr_Cyrl_BA@collation=emoji sr_Cyrl_BA@collation=eor ' +
  'sr_Cyrl_ME sr_Cyrl_ME@collation=emoji sr_Cyrl_ME@collation=eor sr_Cyrl_RS ' +
  'sr_Cyrl_RS@collation=emoji sr_Cyrl_RS@collation=eor sr_Latn sr_Latn@collation=emoji ' +
  'sr_Latn@collation=eor sr_Latn_BA sr_Latn_BA@collation=emoji sr_Latn_BA@collation=eor ' +
  'sr_Latn_RS sr_Latn_RS@collation=emoji sr_Latn_RS@collation=eor sv sv@collation=emoji ' +
  'sv@collation=eor sv@collation=traditional sw sw@collation=emoji sw@collation=eor ' +
  'ta@collation=emoji ta@collation=eor te@collation=emoji te@collation=eor th@collation=emoji ' +
  'th@collation=eor tk tk@collation=emoji tk@collation=eor to to@collation=emoji ' +
  'to@collation=eor tr tr@collation=emoji tr@collation=eor ug ug@collation=emoji ' +
  'ug@collation=eor uk uk@collation=emoji uk@collation=eor ur ur@collation=emoji ' +
  'ur@collation=eor uz uz@collation=emoji uz@collation=eor vi@collation=emoji ' +
  'vi@collation=eor wae wae@collation=emoji wae@collation=eor wo@collation=emoji ' +
  'wo@collation=eor xh xh@collation=emoji xh@collation=eor yi@collation=emoji ' +
  'yi@collation=eor yo@collation=emoji yo@collation=eor zh zh@collation=big5han ' +
  'zh@collation=emoji zh@collation=eor zh@collation=gb2312han zh@collation=stroke ' +
  'zh@collation=unihan zh@collation=zhuyin zh_Hans zh_Hans@collation=big5han ' +
  'zh_Hans@collation=emoji zh_Hans@collation=eor zh_Hans@collation=gb2312han ' +
  'zh_Hans@collation=stroke zh_Hans@collation=unihan zh_Hans@collation=zhuyin zh_Hans_CN ' +
  'zh_Hans_CN@collation=big5han zh_Hans_CN@collation=emoji zh_Hans_CN@collation=eor ' +
  'zh_Hans_CN@collation=gb2312han zh_Hans_CN@collation=stroke zh_Hans_CN@collation=unihan ' +
  'zh_Hans_CN@collation=zhuyin zh_Hans_SG zh_Hans_SG@collation=big5han ' +
  'zh_Hans_SG@collation=emoji zh_Hans_SG@collation=eor zh_Hans_SG@collation=gb2312han ' +
  'zh_Hans_SG@collation=stroke zh_Hans_SG@collation=unihan zh_Hans_SG@collation=zhuyin ' +
  'zh_Hant zh_Hant@collation=big5han zh_Hant@collation=emoji zh_Hant@collation=eor ' +
  'zh_Hant@collation=gb2312han zh_Hant@collation=pinyin zh_Hant@collation=unihan ' +
  'zh_Hant@collation=zhuyin zh_Hant_HK zh_Hant_HK@collation=big5han ' +
  'zh_Hant_HK@collation=emoji zh_Hant_HK@collation=eor zh_Hant_HK@collation=gb2312han ' +
  'zh_Hant_HK@collation=pinyin zh_Hant_HK@collation=unihan zh_Hant_HK@collation=zhuyin ' +
  'zh_Hant_MO zh_Hant_MO@collation=big5han zh_Hant_MO@collation=emoji ' +
  'zh_Hant_MO@collation=eor zh_Hant_MO@collation=gb2312han zh_Hant_MO@collation=pinyin ' +
  'zh_Hant_MO@collation=unihan zh_Hant_MO@collation=zhuyin zh_Hant_TW ' +
  'zh_Hant_TW@collation=big5han zh_Hant_TW@collation=emoji zh_Hant_TW@collation=eor ' +
  'zh_Hant_TW@collation=gb2312han zh_Hant_TW@collation=pinyin zh_Hant_TW@collation=unihan ' +
  'zh_Hant_TW@collation=zhuyin zu zu@collation=emoji zu@collation=eor';

const NORMALIZING =
  'af@collation=search am@collation=search ar@collation=search ar_SA@collation=search as ' +
  'as@collation=search az@collation=search be@collation=search bg@collation=search bn ' +
  'bn@collation=search bn@collation=traditional bo bo@collation=search br@collation=search ' +
  'bs@collation=search bs_Cyrl@collation=search ca@collation=search ceb@collation=search ' +
  'chr@collation=search cs@collation=search cy@collation=search da@collation=search ' +
  'de@collation=search de_AT@collation=search dsb@collation=search dz@collation=search ' +
  'ee@collation=search el el@collation=search en@collation=search en_US@collation=search ' +
  'en_US_POSIX@collation=search eo@collation=search es@collation=search et@collation=search ' +
  'fa fa@collation=search fa_AF fa_AF@collation=search ff@collation=search ' +
  'ff_Adlm@collation=search fi@collation=search fil@collation=search fo@collation=search ' +
  'fr@collation=search fr_CA@collation=search fy@collation=search ga@collation=search ' +
  'gl@collation=search gu gu@collation=search ha@collation=search haw@collation=search he ' +
  'he@collation=search he_IL he_IL@collation=search hi hi@collation=search ' +
  'hr@collation=search hsb@collation=search hu@collation=search hy@collation=search ' +
  'id@collation=search id_ID@collation=search ig ig@collation=search is@collation=search ' +
  'it@collation=search ja@collation=search ka@collation=search kk@collation=search ' +
  'kl@collation=search km km@collation=search kn kn@collation=search kn@collation=traditional ' +
  'ko@collation=search ko@collation=searchjl kok kok@collation=search ku@collation=search ' +
  'ky@collation=search lb@collation=search lkt@collation=search ln@collation=search ' +
  'lo@collation=search lt@collation=search lv@collation=search mk@collation=search ' +
  'ml@collation=search mn@collation=search mr mr@collation=search ms@collation=search ' +
  'mt@collation=search my my@collation=search nb@collation=search nb_NO@collation=search ' +
  'ne@collation=search nl@collation=search nn@collation=search om@collation=search or ' +
  'or@collation=search pa pa@collation=search pa_Guru pa_Guru@collation=search pa_Guru_IN ' +
  'pa_Guru_IN@collation=search pl@collation=search ps ps@collation=search pt@collation=search ' +
  'ro@collation=search ru@collation=search sa@collation=search se@collation=search si ' +
  'si@collation=dictionary si@collation=search sk@collation=search sl@collation=search ' +
  'smn@collation=search sq@collation=search sr@collation=search sr_Cyrl@collation=search ' +
  'sr_Cyrl_BA@collation=search sr_Cyrl_ME@collation=search sr_Cyrl_RS@collation=search ' +
  'sr_Latn@collation=search sr_Latn_BA@collation=search sr_Latn_RS@collation=search ' +
  'sv@collation=search sw@collation=search ta ta@collation=search te te@collation=search ' +
  'th@collation=search tk@collation=search to@collation=search tr@collation=search ' +
  'ug@collation=search uk@collation=search ur@collation=search uz@collation=search vi ' +
  'vi@collation=search vi@collation=traditional wae@collation=search wo wo@collation=search ' +
  'xh@collation=search yi yi@collation=search yo yo@collation=search zh@collation=search ' +
  'zh_Hans@collation=search zh_Hans_CN@collation=search zh_Hans_SG@collation=search ' +
  'zh_Hant@collation=search zh_Hant_HK@collation=search zh_Hant_MO@collation=search ' +
  'zh_Hant_TW@collation=search zu@collation=search';

/** Default settings a locale brings; every other field takes the common default. */
export interface LocaleDefaults {
  caseFirst: CaseFirst;
  alternate: Alternate;
  normalization: boolean;
  backwards: boolean;
}

const COMMON: LocaleDefaults = { caseFirst: 'off', alternate: 'non-ignorable', normalization: false, backwards: false };

const EXCEPTIONS: ReadonlyMap<string, LocaleDefaults> = new Map<string, LocaleDefaults>([
  ['da', { ...COMMON, caseFirst: 'upper' }],
  ['mt', { ...COMMON, caseFirst: 'upper' }],
  ['fr_CA', { ...COMMON, backwards: true }],
  ['th', { ...COMMON, alternate: 'shifted', normalization: true }],
]);

const TABLE: ReadonlyMap<string, LocaleDefaults> = (() => {
  const table = new Map<string, LocaleDefaults>();
  for (const id of PLAIN.split(' ')) table.set(id, COMMON);
  for (const id of NORMALIZING.split(' ')) table.set(id, { ...COMMON, normalization: true });
  for (const [id, defaults] of EXCEPTIONS) table.set(id, defaults);
  return table;
})();

/** The defaults of an ICU locale identifier, or undefined when ICU has no collation under that exact name. */
export function localeDefaults(locale: string): LocaleDefaults | undefined {
  return TABLE.get(locale);
}
