/**
 * Where specgate writes files (reports, regression cases, counterexamples, profiles): never
 * through a symbolic link. A link in a checked-out tree or a shared folder (`reports -> /etc`)
 * would otherwise send a write wherever it points; so a path that is a link, or passes through
 * one, is refused before anything runs, folders are made one at a time without following a
 * link, and files are opened with O_NOFOLLOW. The only links followed are the names the system
 * gives this process's open streams (`/dev/stdout`, `/dev/fd/3`, `/proc/self/fd/1`), which no
 * checked-out tree can plant.
 */
import { constants, closeSync, lstatSync, mkdirSync, mkdtempSync, openSync, readlinkSync, realpathSync, rmdirSync, statSync, writeSync, type Stats } from 'node:fs';
import { dirname, join, parse, relative, resolve, sep } from 'node:path';
import { SpecgateError } from '../errors.js';

/** The system's names of this process's open streams: links by nature, never planted. */
const STREAM_NAME = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/self\/fd\/\d+)$/;

/** True when `path` is the system's name of one of this process's open streams (`/dev/stdout`, `/dev/fd/N`, `/proc/self/fd/N`). */
export function isStreamName(path: string): boolean {
  return STREAM_NAME.test(resolve(path));
}

const lstatOf = (path: string): Stats | undefined => {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
};

/** What `path` is, its links followed (a system link's folder). */
const statOf = (path: string): Stats | undefined => {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
};

/** A symbolic link met on the way to a path: where it is, and what it points to as written. */
export interface LinkOnPath {
  link: string;
  to: string;
}

/**
 * The first symbolic link on the way to `path`: each folder from the root down, then the path
 * itself. Undefined when there is none (a part that does not exist yet is made by specgate,
 * as a folder, later).
 */
export function linkOnPath(path: string): LinkOnPath | undefined {
  const abs = resolve(path);
  let at = parse(abs).root;
  for (const part of abs.slice(at.length).split(sep).filter(Boolean)) {
    at = join(at, part);
    const st = lstatOf(at);
    if (!st) return undefined;
    if (st.isSymbolicLink() && !isSystemLink(at, st)) return { link: at, to: linkText(at) };
  }
  return undefined;
}

/**
 * Whether the link `at` is part of the system's own layout, and so followed: a link right below
 * the root of the file system, owned by root (macOS's /tmp and /var, which every temp folder
 * there passes through; merged-/usr links). Only root can make one; a link anywhere else (in a
 * checked-out tree, a shared folder) is refused.
 */
export function isSystemLink(at: string, st: Stats): boolean {
  return st.uid === 0 && dirname(at) === parse(at).root;
}

/** What a link points to as written; empty when it is gone (the message still names the link). */
function linkText(link: string): string {
  try {
    return readlinkSync(link);
  } catch {
    return '';
  }
}

/** The path with its links resolved, to suggest in a message; undefined when it cannot be found. */
function realPathOf(path: string, link: LinkOnPath): string | undefined {
  try {
    return join(realpathSync(link.link), relative(link.link, resolve(path)));
  } catch {
    return undefined;
  }
}

/**
 * The refusal of an output path through a symbolic link, naming the option it came from.
 * `what` is how the user gave it, e.g. `--report json=reports/results.json`.
 */
export function linkRefusal(what: string, path: string, link: LinkOnPath): SpecgateError {
  const real = realPathOf(path, link);
  const itself = link.link === resolve(path);
  return new SpecgateError(
    'SG_USAGE',
    `${what}: ${itself ? `${link.link} is` : `the folder ${link.link} on the way to it is`} a symbolic link${link.to ? ` (to ${link.to})` : ''}; specgate writes nothing through a symbolic link, so that a link in a checked-out tree or a shared folder cannot send a write elsewhere: ${real ? `give the real path (${real}) if that is where it belongs, or` : ''} remove the link, or choose another path`,
    { path, link: link.link },
  );
}

/**
 * Refuses an output path that is a symbolic link or passes through one.
 * @throws SpecgateError `SG_USAGE` naming `what` (the option as given), the link and the real path.
 */
export function refuseLinks(what: string, path: string): void {
  const link = linkOnPath(path);
  if (link) throw linkRefusal(what, path, link);
}

/**
 * The nearest folder of `path` that exists (the path itself when it does), following no link.
 * @throws SpecgateError `SG_USAGE` when that is not a folder (a file stands where a folder must be made).
 */
export function nearestFolder(what: string, path: string): string {
  let at = resolve(path);
  let st = lstatOf(at);
  while (!st && dirname(at) !== at) {
    at = dirname(at);
    st = lstatOf(at);
  }
  if (st && !st.isDirectory()) throw new SpecgateError('SG_USAGE', `${what}: ${at} is a file, so the folder ${resolve(path)} cannot be created; choose a path under a folder`, { path });
  return at;
}

/**
 * Whether a new file or folder can be made in the existing folder `folder`: tried, with a
 * folder made and removed at once, since permission bits say nothing to root and nothing of a
 * read-only file system or of /proc.
 */
export function canCreateIn(folder: string): { ok: true } | { ok: false; reason: string } {
  try {
    rmdirSync(mkdtempSync(join(folder, '.specgate-write-check-')));
    return { ok: true };
  } catch (e) {
    return { ok: false, reason: (e as NodeJS.ErrnoException).code ?? String(e) };
  }
}

/**
 * Checks before anything runs that an output folder can be made (or is there) and written into,
 * through no symbolic link. Nothing is left behind.
 * @throws SpecgateError `SG_USAGE` naming `what` and what to change.
 */
export function checkOutputFolder(what: string, folder: string): void {
  refuseLinks(what, folder);
  const at = nearestFolder(what, folder);
  const tried = canCreateIn(at);
  if (!tried.ok) {
    const made = at === resolve(folder) ? `cannot write into ${at}` : `cannot create the folder ${resolve(folder)}: nothing can be made in ${at}`;
    throw new SpecgateError('SG_USAGE', `${what}: ${made} (${tried.reason}); choose a folder you can write to`, { path: folder });
  }
}

/**
 * Makes `folder` and its missing parents one at a time, following no symbolic link: an existing
 * part that is a link, or a file, stops it. `forPath` is what the folder is made for (a file in
 * it), for the message.
 * @throws SpecgateError `SG_USAGE` for a link or a file in the way; the system's error otherwise.
 */
export function makeFolderNoFollow(what: string, folder: string, forPath: string = folder): void {
  const abs = resolve(folder);
  let at = parse(abs).root;
  for (const part of abs.slice(at.length).split(sep).filter(Boolean)) {
    at = join(at, part);
    let st = lstatOf(at);
    if (!st) {
      try {
        mkdirSync(at);
      } catch (e) {
        // made by someone else meanwhile: look at what it is
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      st = lstatOf(at);
    }
    if (st?.isSymbolicLink()) {
      if (!isSystemLink(at, st)) throw linkRefusal(what, forPath, { link: at, to: linkText(at) });
      st = statOf(at);
    }
    if (!st?.isDirectory()) throw new SpecgateError('SG_USAGE', `${what}: ${at} is not a folder, so ${abs} cannot be made; choose another path`, { path: folder });
  }
}

/** Flags of a file opened for writing that follows no link at its own name. */
const NO_FOLLOW_WRITE = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;

/**
 * Writes `content` to `file`, its folder made by {@link makeFolderNoFollow}, the file opened
 * with O_NOFOLLOW (a link planted at its name after the checks fails the write, ELOOP):
 * `exclusive` refuses an existing file, otherwise an existing regular file is replaced in place.
 * @throws SpecgateError `SG_USAGE` for a link on the way; the system's error otherwise.
 */
export function writeFileNoFollow(what: string, file: string, content: string | Uint8Array, opts: { mode?: number; exclusive?: boolean } = {}): void {
  makeFolderNoFollow(what, dirname(file), file);
  const flags = NO_FOLLOW_WRITE | (opts.exclusive ? constants.O_EXCL : constants.O_TRUNC);
  let fd: number;
  try {
    fd = openSync(file, flags, opts.mode ?? 0o666);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefusal(what, file, { link: resolve(file), to: linkText(file) });
    throw e;
  }
  try {
    const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
    let done = 0;
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done);
  } finally {
    closeSync(fd);
  }
}
