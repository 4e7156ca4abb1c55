#!/usr/bin/env node
/**
 * A scripted plugin for testing compilers (spec A, "What the service does": a plugin reads one
 * CodeGeneratorRequest from stdin and writes one CodeGeneratorResponse to stdout).
 *
 * It answers with bytes prepared beforehand, so a test decides exactly what the compiler gets:
 *   --response FILE   (or env SPECGATE_PLUGIN_RESPONSE) bytes to write to stdout
 *   --record FILE     (or env SPECGATE_PLUGIN_RECORD)   where to save the request bytes it read
 *   --exit N          exit status after answering (default 0)
 *   --stderr TEXT     a message to write to stderr
 * Deliberately free of heavy imports, so it starts fast.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { readAllStdin, writeAndExit } from './stdio.js';

function option(args: readonly string[], name: string): string | undefined {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
}

function main(): void {
  const args = process.argv.slice(2);
  const responseFile = option(args, '--response') ?? process.env['SPECGATE_PLUGIN_RESPONSE'];
  const recordFile = option(args, '--record') ?? process.env['SPECGATE_PLUGIN_RECORD'];
  const exit = Number(option(args, '--exit') ?? '0');
  const message = option(args, '--stderr');
  const request = readAllStdin();
  if (recordFile) writeFileSync(recordFile, request);
  if (!responseFile) {
    process.stderr.write('scripted plugin: no response file (set --response or SPECGATE_PLUGIN_RESPONSE)\n');
    process.exit(2);
  }
  const response = readFileSync(responseFile);
  if (message) process.stderr.write(`${message}\n`);
  writeAndExit(response, exit);
}

main();
