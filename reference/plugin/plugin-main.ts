#!/usr/bin/env node
/**
 * The reference plugin executable (spec A): reads one CodeGeneratorRequest from stdin, writes
 * one CodeGeneratorResponse to stdout. Schema errors go to `error` with exit status 0
 * (Errors 1); a request it cannot parse, or one that is inconsistent, is reported on stderr
 * with exit status 1 (Errors 2). Uses the lean codec so that it starts fast.
 */
import { BadRequestError, generate } from './generator.js';
import { leanDecodeRequest, leanEncodeResponse } from './lean-codec.js';
import { readAllStdin, writeAllSync, writeAndExit } from './stdio.js';

function main(): void {
  const input = readAllStdin();
  let response;
  try {
    response = generate(leanDecodeRequest(input));
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    const kind = e instanceof BadRequestError ? 'inconsistent request' : 'cannot parse the CodeGeneratorRequest on stdin';
    writeAllSync(2, `protoc-gen-specgate: ${kind}: ${why}\n`);
    process.exit(1);
  }
  writeAndExit(leanEncodeResponse(response), 0);
}

main();
