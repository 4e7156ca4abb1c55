import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** A suite folder `name` under `root`, with a catalog of one requirement and one case file; returns the folder. */
export function suiteFolder(root: string, name: string): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'cases'), { recursive: true });
  writeFileSync(join(dir, 'requirements.yaml'), '- id: R-1\n');
  writeFileSync(join(dir, 'cases', 'one.yaml'), '- id: one\n');
  return dir;
}
