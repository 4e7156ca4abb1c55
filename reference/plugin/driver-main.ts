#!/usr/bin/env node
/**
 * The reference compiler driver executable (spec A, the compiler side), with protoc's command
 * line: see driver.ts.
 */
import { runDriver } from './driver.js';

const result = runDriver(process.argv.slice(2));
if (result.stdout?.length) process.stdout.write(`${result.stdout.join('\n')}\n`);
if (result.stderr.length) process.stderr.write(`${result.stderr.join('\n')}\n`);
process.exitCode = result.status;
