import { createServer, type AddressInfo } from 'node:net';

/**
 * A TCP port nobody listens on at the moment. Apart from server-process so that the
 * integration tests (test/support/processes) take it without the bench's database imports.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
