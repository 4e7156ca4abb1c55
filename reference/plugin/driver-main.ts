#!/usr/bin/env node
/**
 * The reference compiler driver executable (spec A, the compiler side), with protoc's command
 * line: see driver.ts.
 */
import { runDriver } from './driver.js';
import { writeAllSync } from './stdio.js';

const result = runDriver(process.argv.slice(2));
if (result.stdout?.length) writeAllSync(1, `${result.stdout.join('\n')}\n`);
if (result.stderr.length) writeAllSync(2, `${result.stderr.join('\n')}\n`);
process.exitCode = result.status;
