import { connect, type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ADVERTISED_KEEP_ALIVE_S, createHttpServer, KEEP_ALIVE_MS } from './http-server.ts';

const servers: ReturnType<typeof createHttpServer>[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

describe('createHttpServer', () => {
  it('announces a short idle time and answers a second request on a connection left idle longer than announced', async () => {
    let served = 0;
    const server = createHttpServer((_req, res) => {
      served += 1;
      res.end(String(served));
    });
    servers.push(server);
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    const { port } = server.address() as AddressInfo;

    const socket = connect(port, '127.0.0.1');
    let received = '';
    let closed = false;
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => (closed = true));
    const request = 'GET / HTTP/1.1\r\nhost: localhost\r\n\r\n';
    socket.write(request);
    await expect.poll(() => served, { timeout: 2_000 }).toBe(1);
    // Clients stop reusing the connection after the announced time (undici: 2 s before it);
    // the server keeps it a minute longer, so the two never race to use and close it.
    await expect.poll(() => received.includes('\r\n\r\n'), { timeout: 2_000 }).toBe(true);
    expect(received.match(/^keep-alive: .*$/gim)).toEqual([
      `Keep-Alive: timeout=${ADVERTISED_KEEP_ALIVE_S}`,
    ]);
    expect(received).toMatch(/^Connection: keep-alive\r$/im);
    expect(KEEP_ALIVE_MS / 1000 - ADVERTISED_KEEP_ALIVE_S).toBeGreaterThanOrEqual(60);
    await new Promise((done) => setTimeout(done, 7_000));
    expect(closed).toBe(false);
    socket.write(request);
    await expect.poll(() => received.match(/HTTP\/1\.1 200/g)?.length, { timeout: 2_000 }).toBe(2);
    socket.destroy();
  }, 15_000);
});
