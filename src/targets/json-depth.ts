/**
 * How deeply specgate lets parsed JSON nest. Every walker of a parsed value (matchers, schema
 * validation, redaction, reports, the lossless parser itself) recurses once per level, so a
 * 4 KB body of `[[[[...` would otherwise overflow the stack; no real API nests this deep.
 * A module of its own, so what only needs the limit (the loader) does not load the body parsers.
 */
export const MAX_JSON_DEPTH = 256;
