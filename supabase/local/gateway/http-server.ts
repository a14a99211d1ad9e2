/**
 * The HTTP servers of the local stack (the API gateway and the app's address).
 *
 * A kept-alive connection is closed by whichever side's idle timer fires first. Node's server
 * closes after 5 s and undici (Node's `fetch`, used by supabase-js in the API tests) reuses a
 * connection for 4 s: on a loaded machine a client whose event loop stalls past the server's 5 s
 * sends a request on a socket the server is closing, and `fetch` fails with no answer (seen once
 * in CI as `TypeError: fetch failed` in the middle of an API test). Hosted Supabase's edge keeps
 * idle connections far longer than that, so the local servers do too and the client's timer
 * fires first. (Chromium resends a request that fails on a reused connection.)
 */
import { createServer, type RequestListener, type Server } from 'node:http';

/** Idle time after which the server closes a kept-alive connection (Node's default is 5 s). */
export const KEEP_ALIVE_MS = 65_000;

export function createHttpServer(listener: RequestListener): Server {
  const server = createServer(listener);
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A request's headers must come within this time; Node wants it above the idle timeout.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}
