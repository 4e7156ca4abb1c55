/**
 * Where tests find third-party programs. System programs are looked up on PATH with every
 * node_modules directory left out: inside `npm test` npm puts node_modules/.bin first, and a
 * devDependency may ship a wrapper under a system program's name (@protobuf-ts/plugin brings a
 * `protoc` that adds arguments of its own and downloads a protoc when it finds none). Tests
 * always run the real program by its absolute path.
 */
import { delimiter } from 'node:path';
import { findOnPath } from '../../reference/plugin/search-path.js';
import { fromRoot } from '../../src/paths.js';

/** Absolute path of `name` on PATH outside any node_modules directory, or undefined. */
export function systemProgram(name: string, path: string = process.env['PATH'] ?? ''): string | undefined {
  const outside = path.split(delimiter).filter((dir) => !dir.split(/[\\/]/).includes('node_modules'));
  return findOnPath(name, { PATH: outside.join(delimiter) });
}

/** Absolute path of a devDependency's program in this project's node_modules/.bin, or undefined. */
export function localProgram(name: string): string | undefined {
  return findOnPath(name, { PATH: fromRoot('node_modules', '.bin') });
}

/** A system program if there is one, else the project's own. */
export function findProgram(name: string): string | undefined {
  return systemProgram(name) ?? localProgram(name);
}

/** The system protoc (Debian protobuf-compiler), never a node_modules wrapper. */
export const PROTOC: string | undefined = systemProgram('protoc');

/** PROTOC, or the bare name so a test that runs it anyway fails with "not found". */
export const protocCommand: string = PROTOC ?? 'protoc';
