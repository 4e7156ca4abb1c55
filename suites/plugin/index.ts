import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SuiteModule } from '../../src/engine/suite-module.js';
import { execFor } from '../../src/targets/command-line.js';
import { pluginCodecs } from '../../reference/plugin/codec.js';
import { pluginReference } from '../../reference/plugin/reference-target.js';
import { pluginGenerators } from '../../generators/plugin/index.js';
import { compilerRequest } from './checks/compiler-request.js';
import { compilerProperty, compilerRun } from './checks/compiler-run.js';
import { fuzzRequest } from './checks/fuzz-request.js';
import { generatedExchanges, generatedRequests } from './checks/generated.js';
import { executableName } from './checks/executable-name.js';
import { compilerVersion, deterministic, fieldOrder, fileToGenerate, schemaError, unknownFields } from './checks/plugin-behaviour.js';
import { parameterRules } from './checks/parameter-rules.js';
import { generatedRules, responseRules } from './checks/plugin-rules.js';
import { markerPrefix } from './checks/support.js';
import { responseViolations } from './oracles.js';
import { responseSchema } from './schemas.js';

/** Suite files live next to the sources; compiled code runs from dist/, so step back out. */
function suiteDir(): string {
  const here = dirname(fileURLToPath(import.meta.url));
  return here.replace(/([\\/])dist[\\/]suites[\\/]plugin$/, '$1suites$1plugin');
}

/**
 * The code-generator plugin protocol suite (spec 000, part A), both sides: `--plugin <exe>`
 * checks a plugin, `--compiler <exe>` checks a compiler with protoc's command line.
 */
export const suite: SuiteModule = {
  name: 'plugin',
  dir: suiteDir(),
  title: 'Code-generator plugin protocol (plugins and compilers)',
  checks: {
    responseRules, generatedRules, parameterRules, schemaError, fieldOrder, unknownFields, compilerVersion, deterministic, fileToGenerate,
    executableName, compilerRun, compilerRequest, compilerProperty, fuzzRequest,
  },
  generators: {
    ...pluginGenerators,
    request: () => generatedRequests(),
    exchange: (ctx) => generatedExchanges(markerPrefix(ctx)),
  },
  oracles: { responseViolations },
  codecs: pluginCodecs,
  schemas: { response: responseSchema },
  reference: pluginReference,
  // loaded when a search runs: listing, validating and running the suite do not load the fuzzer
  fuzz: async (opts) => (await import('./fuzz/fuzz-plugin.js')).fuzzPlugin(opts),
  // A profile may name the plugin as `exec:` or as `vars.plugin_command`: YAML exec steps need
  // the first, cases with `needs: [plugin_command]` the second.
  completeTarget: ({ vars, exec }) => {
    const command = vars['plugin_command'];
    if (exec && (command === undefined || command === '')) return { vars: { ...vars, plugin_command: [exec.command, ...(exec.args ?? [])] }, exec };
    if (!exec && command !== undefined && command !== '' && !JSON.stringify(command).includes('${')) return { vars, exec: execFor(command, 'vars.plugin_command') };
    return exec ? { vars, exec } : { vars };
  },
  targetOptions: [
    {
      flag: 'plugin',
      valueName: 'executable',
      description: 'check this code-generator plugin (a path, or a command line; a .js file runs with node)',
      vars: (value) => ({ plugin_command: value }),
      exec: (value) => execFor(value, '--plugin'),
    },
    {
      flag: 'compiler',
      valueName: 'executable',
      description: 'check this schema compiler, called with protoc\'s command line (a path, or a command line)',
      vars: (value) => ({ compiler_command: value }),
    },
  ],
};
