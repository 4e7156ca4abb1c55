/**
 * The parameters the target says its plugin takes (var plugin_parameters: a list, where `null`
 * stands for no parameter, or one string), or undefined when it names none. When it names some,
 * they are the only parameters specgate sends (spec A, CodeGeneratorRequest.parameter: what a
 * parameter means is up to each plugin); when it names none, `specgate run` and `specgate fuzz`
 * generate parameters (generators/plugin/plugin-parameter.ts).
 */
export function givenParameters(vars: Readonly<Record<string, unknown>>): (string | undefined)[] | undefined {
  const v = vars['plugin_parameters'];
  if (Array.isArray(v) && v.length) return v.map((p) => (p === null || p === undefined || p === '' ? undefined : String(p)));
  if (typeof v === 'string' && v !== '') return [v];
  return undefined;
}
