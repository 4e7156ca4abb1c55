/**
 * Named deviations from the collation rules of spec 001 part F. A planted-fault store is the
 * reference store with one (or a few) of these switched on; each switch changes exactly one rule,
 * so a case that catches it proves it judges that rule.
 */
export const STORE_FAULTS = {
  viewInheritsCollectionCollation:
    'A view created without `collation` takes the default collation of its source (collection or view) instead of simple ("A view\'s default collation ... defaults to simple binary comparison, and is not inherited").',
  viewOverrideAccepted:
    'An operation on a view that names a collation other than the view\'s default is accepted and runs with the named collation instead of being refused (Errors 2).',
  viewCollationChangeAccepted:
    'A `collMod` of a view that names a `collation` is accepted and changes the view\'s default collation, instead of being refused with the view unchanged (Errors 2: an operation that tries to change a view\'s default collation fails).',
  viewOnViewOtherCollationAccepted:
    'A view created on another view with a different collation (including simple when the source is not) is accepted (Errors 2).',
  lookupAcrossCollationsAccepted:
    'A `$lookup` or `$graphLookup` whose `from` is a view with a collation other than the operation\'s is accepted, in an aggregate and in a view\'s pipeline (Errors 2).',
  sortIgnoresCollation:
    'A sort compares strings byte for byte even when the operation\'s collation is not simple, while the filter still uses the collation (Endpoints F.2: one collation for filter and sort).',
  bulkStatementCollationIgnored:
    'The `collation` of an individual `update` or `delete` statement is ignored; the collection default is used (Endpoints F.3).',
  indexIgnoresCollationMismatch:
    'A non-simple operation collation uses an index with another collation for string bounds as if they were equal (Collation and indexes 1).',
  simpleUsesCollatedIndex:
    'An operation with the simple collation uses an index with a non-simple collation for string bounds (Collation and indexes 1, last clause).',
  noPrefixUseWithOtherCollation:
    'An index whose collation differs from the operation\'s is never used when the query has a string predicate on any of its keys, even for non-string prefix keys (Collation and indexes 2).',
  textIndexWithoutSimpleAccepted:
    'A text, 2d or geoHaystack index on a collection with a non-simple default is created without `collation: {locale: "simple"}` (Collation and indexes 4).',
  keyMatchUsesCollation:
    'Field names in a filter (dotted paths included) are matched against document keys with the operation\'s collation instead of byte for byte (Collation and indexes 5).',
  simpleStoredExplicitly:
    'A simple collation is stored and listed as `{locale: "simple"}` instead of as no collation (collections, views and indexes).',
  echoOmitsDefaults:
    'A valid collation is listed as the user wrote it instead of with every field filled in.',
  invalidCollationAccepted:
    'An invalid collation document is accepted (treated as simple, listed as written) instead of refused.',
  indexIgnoresCollectionDefault:
    'An index created without `collation` gets the simple collation instead of the collection\'s default.',
  operationIgnoresCollectionDefault:
    'An operation that names no collation on a collection uses simple instead of the collection\'s default (Resources F: a collation given for a collection).',
  uniqueIndexIgnoresCollation:
    'A unique index (the `_id` index included) compares string keys byte for byte instead of with its collation.',
} as const;

export type StoreFaultName = keyof typeof STORE_FAULTS;

/** The switches a store is built with; absent means the rule holds. */
export type StoreFaults = Partial<Record<StoreFaultName, boolean>>;

export const STORE_FAULT_NAMES = Object.keys(STORE_FAULTS) as StoreFaultName[];

export function isStoreFaultName(name: string): name is StoreFaultName {
  return Object.hasOwn(STORE_FAULTS, name);
}
