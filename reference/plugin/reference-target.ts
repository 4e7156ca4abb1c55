import { existsSync } from 'node:fs';
import type { ReferenceTarget } from '../../src/engine/suite-module.js';
import { SpecgateError } from '../../src/errors.js';
import { fromRoot } from '../../src/paths.js';
import { compiledScript, referenceCommand, referenceEnv } from './launcher.js';
import { DEFAULT_MARKER_PREFIX } from './model/index.js';

/**
 * The plugin suite's embedded reference: the reference plugin (plugin side) and the reference
 * driver (compiler side), both compiled scripts run with this Node. The plugin is installed for
 * compilers as `reference/plugin/bin/protoc-gen-specgate` (a wrapper running the same script),
 * the executable name PLUGIN-EXECUTABLE-NAME judges. Both start lean (launcher.ts referenceEnv,
 * given as the plugin's exec environment and as var compiler_env): a run starts many of them, so
 * their start is most of its cost.
 */
export const pluginReference: ReferenceTarget = {
  async start() {
    const plugin = compiledScript('plugin-main');
    const driver = compiledScript('driver-main');
    for (const p of [plugin, driver]) {
      if (!existsSync(p)) throw new SpecgateError('SG_TARGET_UNREACHABLE', `the reference plugin cannot start: ${p} is missing; build specgate first (npm run build)`);
    }
    const [command = process.execPath, ...args] = referenceCommand('plugin-main');
    const env = referenceEnv();
    return {
      description: 'reference plugin and reference compiler driver (spec A)',
      vars: {
        plugin_command: [command, ...args],
        compiler_command: referenceCommand('driver-main'),
        compiler_env: env,
        insertion_marker_prefix: DEFAULT_MARKER_PREFIX,
        plugin_name_prefix: 'protoc-gen-',
        plugin_executable: fromRoot('reference', 'plugin', 'bin', 'protoc-gen-specgate'),
        plugin_error_parameter: 'fail=the schema asks for something this generator cannot do',
      },
      exec: { command, args, env },
      async stop() {
        // Nothing runs between cases: every plugin and compiler run is a process of its own.
      },
    };
  },
};
