#!/usr/bin/env node
import { main } from '../dist/src/cli/main.js';

main(process.argv).then((code) => {
  process.exitCode = code;
});
