/**
 * The HTTP servers of the local stack (the API gateway and the app's address).
 *
 * A kept-alive connection is closed by whichever side's idle timer fires first, and a client that
 * sends a request on a socket the server is closing gets no answer (`TypeError: fetch failed`,
 * seen in CI in the middle of API tests on a loaded machine). undici (Node's `fetch`, which
 * supabase-js uses in the API tests) reads the server's `Keep-Alive: timeout=N` and reuses an idle
 * connection for N − 2 s only: with Node's own header (N = the server's idle time) the two timers
 * are 2 s apart, and a client whose event loop stalls longer sends on a closing socket.
 *
 * So the servers advertise a short idle time and keep idle connections far longer: a client
 * (undici, Chromium) stops reusing a connection minutes before the server would close it.
 * Hosted Supabase's edge keeps idle connections longer than any client, as this does.
 */
import { createServer, type RequestListener, type Server } from 'node:http';

/** Idle time after which the server closes a kept-alive connection (Node's default is 5 s). */
export const KEEP_ALIVE_MS = 65_000;

/** The idle time the server announces to clients (`Keep-Alive: timeout=`), in seconds. */
export const ADVERTISED_KEEP_ALIVE_S = 5;

export function createHttpServer(listener: RequestListener): Server {
  const server = createServer((req, res) => {
    // A header set here replaces the one Node derives from `keepAliveTimeout`.
    res.setHeader('Keep-Alive', `timeout=${ADVERTISED_KEEP_ALIVE_S}`);
    listener(req, res);
  });
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  // A request's headers must come within this time; Node wants it above the idle timeout.
  server.headersTimeout = KEEP_ALIVE_MS + 1_000;
  return server;
}
