import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { systemProgram } from './programs.js';

describe('systemProgram', () => {
  const root = mkdtempSync(join(tmpdir(), 'specgate-programs-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const wrapperDir = join(root, 'project', 'node_modules', '.bin');
  const systemDir = join(root, 'usr', 'bin');
  for (const dir of [wrapperDir, systemDir]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'tool'), '#!/bin/sh\n');
    chmodSync(join(dir, 'tool'), 0o755);
  }
  writeFileSync(join(systemDir, 'not-executable'), '');

  it('passes over a node_modules wrapper placed first on PATH, as npm scripts do', () => {
    expect(systemProgram('tool', [wrapperDir, systemDir].join(delimiter))).toBe(join(systemDir, 'tool'));
  });

  it('finds nothing when only node_modules has it, or the file is not executable', () => {
    expect(systemProgram('tool', wrapperDir)).toBeUndefined();
    expect(systemProgram('not-executable', systemDir)).toBeUndefined();
    expect(systemProgram('tool', '')).toBeUndefined();
  });
});
