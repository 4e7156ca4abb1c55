/**
 * Database URLs checked when the profile loads: what a driver refuses, or reads otherwise than
 * meant, is said with how to write it, and the password never appears in the message.
 */
import { describe, expect, it } from 'vitest';
import { databaseUrlProblem } from '../../../src/targets/database/database-url.js';

describe('databaseUrlProblem', () => {
  it.each([
    'postgres://app:secret@127.0.0.1:5432/scratch',
    'postgresql://app@db.example.test/scratch',
    'postgres:///scratch?host=/var/run/postgresql',
    'mongodb://app:secret@127.0.0.1:27017/scratch',
    'mongodb://h1:27017,h2:27018/scratch?replicaSet=rs0',
    'mongodb+srv://app:secret@cluster.example.test/scratch',
    // what both drivers read as written
    'mongodb://app:pa+ss=word!@127.0.0.1:27017/scratch',
    'postgres://app:p%2Fa%3As%40s@127.0.0.1/scratch',
    'mongodb://[::1]:27017/scratch',
  ])('accepts %s', (url) => {
    expect(databaseUrlProblem(url)).toBeUndefined();
  });

  it('names each character of a password to percent-encode, and how, without showing the password', () => {
    const problem = databaseUrlProblem('mongodb://app:Zm9v/YmFy+Ym?F6@x=@127.0.0.1:27017/scratch');
    expect(problem).toMatch(/^has a password holding characters a URL must carry percent-encoded: write "\/" as %2F, "\?" as %3F, "@" as %40 \(the password itself is not shown\); percent-encode them/);
    expect(problem).not.toContain('Zm9v');
  });

  it('finds the password of a postgres URL whose "/" cut it short, and a colon or space in it', () => {
    expect(databaseUrlProblem('postgres://app:ab/cd@127.0.0.1:5432/scratch')).toMatch(/password .* write "\/" as %2F/);
    expect(databaseUrlProblem('mongodb://app:a:b@127.0.0.1/scratch')).toMatch(/password .* write ":" as %3A/);
    expect(databaseUrlProblem('postgres://app:a b@127.0.0.1/scratch')).toMatch(/password .* write " " as %20/);
    expect(databaseUrlProblem('postgres://app:50%off@127.0.0.1/scratch')).toMatch(/password .* write a "%" that starts no %XX escape as %25/);
    // an "@" before a "/" would otherwise end the password there, and name a host of its rest
    expect(databaseUrlProblem('postgres://app:p@ss/word@127.0.0.1:5432/scratch')).toMatch(/password .* write "@" as %40, "\/" as %2F/);
    expect(databaseUrlProblem('mongodb://app:pa?ss@127.0.0.1/scratch')).toMatch(/password .* write "\?" as %3F/);
  });

  it('says what is wrong with the user name, the scheme and the hosts', () => {
    expect(databaseUrlProblem('postgres://a pp:secret@127.0.0.1/scratch')).toMatch(/^has a user name holding .* " " as %20/);
    expect(databaseUrlProblem('mysql://app@127.0.0.1/scratch')).toMatch(/^uses "mysql:", which specgate has no adapter for; supported: postgres:, postgresql:, mongodb:, mongodb\+srv:$/);
    expect(databaseUrlProblem('127.0.0.1:5432')).toMatch(/^is not a URL/);
    expect(databaseUrlProblem('mongodb://app:secret@/scratch')).toMatch(/^names no host/);
    expect(databaseUrlProblem('mongodb://127.0.0.1:99999/scratch')).toMatch(/^names the port 99999, which is not a port/);
    expect(databaseUrlProblem('mongodb+srv://cluster.example.test:27017/scratch')).toMatch(/one host name and no port/);
  });

  it('leaves an @ in the options to the options when the hosts read as hosts', () => {
    expect(databaseUrlProblem('mongodb://127.0.0.1:27017/scratch?appName=a@b')).toBeUndefined();
  });
});
