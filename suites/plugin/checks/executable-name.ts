import { basename } from 'node:path';
import { defineCheck } from '../../../src/engine/checks/contract.js';
import type { CheckContext } from '../../../src/engine/suite-module.js';
import { commandArgv } from '../../../src/targets/command-line.js';
import { NO_ARGS } from './arguments.js';
import { failFor, pluginNamePrefix } from './support.js';

/**
 * The executable a compiler would run for the plugin under test: var plugin_executable when the
 * target names it, else the target's command when that is one executable (`--plugin
 * /usr/bin/protoc-gen-go`). A command line (an interpreter and a script, a shell line, extra
 * arguments) does not show the name a compiler would find the plugin under: undefined then.
 */
export function pluginExecutable(ctx: CheckContext): string | undefined {
  const named = ctx.vars['plugin_executable'];
  if (typeof named === 'string' && named !== '') return named;
  const argv = ctx.execConfig ? [ctx.execConfig.command, ...(ctx.execConfig.args ?? [])] : commandArgv(ctx.vars['plugin_command'], 'plugin command');
  return argv.length === 1 ? argv[0] : undefined;
}

/** What follows the prefix in an executable's name (`go` in `protoc-gen-go`, `.exe` dropped), or why there is nothing. */
export function pluginNameIn(file: string, prefix: string): { name: string } | { problem: string } {
  const exe = basename(file).replace(/\.exe$/i, '');
  if (!exe.startsWith(prefix)) return { problem: `the executable is named ${JSON.stringify(basename(file))}, not ${prefix}<NAME>` };
  const name = exe.slice(prefix.length);
  if (name === '') return { problem: `the executable is named ${JSON.stringify(basename(file))}: there is no NAME after ${prefix}` };
  return { name };
}

/**
 * `plugin.executableName` (PLUGIN-EXECUTABLE-NAME, spec A, What the service does: "The plugin
 * executable is named `<compiler>-gen-<NAME>`"): the executable specgate is given, or the one
 * the target names, has the compiler's prefix (var plugin_name_prefix) and a NAME after it.
 * Nothing is run. A plugin given as a command line is skipped with that reason (the requirement
 * stays untested), since its name is not shown.
 */
export const executableName = defineCheck<Record<string, never>>({
  description: 'judges the name of the plugin executable against the compiler\'s prefix (var plugin_name_prefix): <prefix><NAME>',
  args: NO_ARGS,
  judges: ['PLUGIN-EXECUTABLE-NAME'],
  run: async (ctx) => {
    const prefix = pluginNamePrefix(ctx);
    const file = pluginExecutable(ctx);
    if (file === undefined) {
      return ctx.skip(`the plugin is run as a command line, which does not show the executable name a compiler would look for (${prefix}<NAME>); set vars.plugin_executable to the file a compiler runs`);
    }
    const found = pluginNameIn(file, prefix);
    if ('problem' in found) {
      failFor(ctx, {
        requirement: 'PLUGIN-EXECUTABLE-NAME',
        message: `${found.problem}: a compiler given --<NAME>_out looks for ${prefix}<NAME> on the search path, so it does not find this plugin by its name (it needs --plugin=${prefix}<NAME>=${file})`,
        expected: `${prefix}<NAME>`,
        actual: file,
      });
    }
  },
});
