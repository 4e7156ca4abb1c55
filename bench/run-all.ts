import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * `npm run bench`: every benchmark, each printing ratios measured side by side in one run.
 * Pass names to run only some (`npm run bench -- harness-http`).
 */
const BENCHES = ['harness-http', 'merchant-routes', 'plugin-fuzz', 'plugin-generate', 'events-paging', 'collation-sort', 'hostile-memory', 'har-recording', 'scale', 'oauth-browser'];

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const here = dirname(fileURLToPath(import.meta.url));
  for (const name of BENCHES) {
    if (only.length && !only.includes(name)) continue;
    const file = join(here, `${name}.js`);
    if (!existsSync(file)) {
      console.log(`${name}: not built (missing ${file})`);
      continue;
    }
    console.log(`== ${name}`);
    const mod = (await import(pathToFileURL(file).href)) as { runBench?: () => Promise<void>; run?: () => Promise<void> };
    const fn = mod.runBench ?? mod.run;
    if (!fn) throw new Error(`${name} exports neither runBench nor run`);
    await fn();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
