import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMONJS_BUILD } from './launcher.js';

/**
 * Marks the CommonJS build of the reference plugin and compiler driver (tsconfig.commonjs.json)
 * as CommonJS: the package is `"type": "module"`, and a folder's own package.json is what makes
 * Node load the `.js` files under it with `require`. Run by `npm run build` after that compile.
 */
mkdirSync(COMMONJS_BUILD, { recursive: true });
writeFileSync(join(COMMONJS_BUILD, 'package.json'), '{ "type": "commonjs" }\n');
