/** Starting and stopping the planted-fault greeting service (test/fixtures/demo/fault-server.ts) from tests. */
import { freePort } from '../../src/targets/free-port.js';
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll } from 'vitest';
import { FAULT_SERVER } from './cli.js';

export interface FaultServer {
  url: string;
  stop(): Promise<void>;
}

/** Spawns the fault server and waits for the base URL it prints first. */
export function startFaultServer(...faults: string[]): Promise<FaultServer> {
  const child: ChildProcess = spawn(process.execPath, [FAULT_SERVER, ...faults.flatMap((f) => ['--fault', f])], { stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.on('error', reject);
    child.on('exit', (code) => reject(new Error(`fault server exited early (${String(code)}): ${err}`)));
    child.stdout?.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const nl = out.indexOf('\n');
      if (nl < 0) return;
      child.removeAllListeners('exit');
      resolve({
        url: out.slice(0, nl).trim(),
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            // closing stdin is the polite stop; SIGTERM covers a server that ignores it
            child.stdin?.end();
            child.kill('SIGTERM');
          }),
      });
    });
  });
}

/**
 * A loopback port nobody listens on: free now, and outside the range listen(0) hands out, so
 * a server another test file starts meanwhile does not take it.
 */
export function closedPort(): Promise<number> {
  return freePort();
}

/**
 * A starter for planted-fault servers whose every server is stopped after the file's tests
 * (call it at the top level of a test file).
 */
export function faultServers(): (...faults: string[]) => Promise<FaultServer> {
  const servers: FaultServer[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop()));
  });
  return async (...faults) => {
    const s = await startFaultServer(...faults);
    servers.push(s);
    return s;
  };
}
