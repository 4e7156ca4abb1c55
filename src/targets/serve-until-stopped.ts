/**
 * Keeps a standalone played server (`node dist/reference/<suite>/server/standalone.js`) alive
 * until Ctrl-C, SIGTERM or the end of its lifetime, then stops it and exits 0: a server started
 * by hand or by a test never outlives its use.
 */
export function serveUntilStopped(stopServer: () => Promise<void>, lifetimeMs: number): void {
  const stop = (): void => void stopServer().then(() => process.exit(0));
  setTimeout(stop, lifetimeMs).unref();
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  // keep the process alive while the server listens
  setInterval(() => undefined, 1 << 30);
}
