import { qualify, uniqueName } from './naming.js';

/**
 * Full names already used in a descriptor set. The schema compiler keeps one symbol table for
 * all files it loads: two files of one package share a scope, a package name and a message of
 * the same full name clash, and enum values live in the scope that encloses their enum (C++
 * scoping rules), so values of two enums in one scope must differ.
 */
export class SymbolTable {
  private readonly packages = new Set<string>();
  private readonly symbols = new Set<string>();

  /** Registers a package and every prefix of it (`a.b` also defines `a`). */
  addPackage(pkg: string): void {
    const parts = pkg.split('.');
    for (let i = 1; i <= parts.length; i++) this.packages.add(parts.slice(0, i).join('.'));
  }

  isFree(fullName: string): boolean {
    return !this.symbols.has(fullName) && !this.packages.has(fullName);
  }

  add(fullName: string): void {
    this.symbols.add(fullName);
  }

  /**
   * Picks a name for a new symbol in `scope`: `base`, or `base` with a number appended, that is
   * free in this table and passes `extra`; registers and returns it.
   */
  claim(scope: string, base: string, extra: (name: string) => boolean = () => true): string {
    const name = uniqueName(base, (candidate) => this.isFree(qualify(scope, candidate)) && extra(candidate));
    this.add(qualify(scope, name));
    return name;
  }
}
