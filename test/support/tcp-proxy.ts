import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

/** A TCP forwarder in front of a real server, which a test can cut or silence and restore. */
export class TcpProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  private mode: 'open' | 'cut' | 'blackhole' = 'open';
  port = 0;

  constructor(
    private targetHost: string,
    private targetPort: number,
  ) {}

  async start(): Promise<this> {
    this.server = createServer((client) => {
      if (this.mode === 'cut') {
        client.destroy();
        return;
      }
      this.track(client);
      if (this.mode === 'blackhole') return;
      const upstream = connect(this.targetPort, this.targetHost);
      this.track(upstream);
      // In a blackhole bytes are held, as TCP holds them through a partition, and delivered late on restore.
      client.on('data', (d: Buffer) => this.forward(upstream, d));
      upstream.on('data', (d: Buffer) => this.forward(client, d));
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server?.listen(0, '127.0.0.1', resolve));
    this.port = (this.server?.address() as AddressInfo).port;
    return this;
  }

  private readonly held: Array<{ to: Socket; data: Buffer }> = [];

  private forward(to: Socket, data: Buffer): void {
    if (this.mode === 'open') to.write(data);
    else this.held.push({ to, data });
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  /** Drops every connection and refuses new ones, as a crashed server would. */
  cut(): void {
    this.mode = 'cut';
    this.held.length = 0;
    for (const s of this.sockets) s.destroy();
  }

  /** Keeps connections open but lets nothing through: a server that stopped answering. */
  blackhole(): void {
    this.mode = 'blackhole';
  }

  /** Ends every connection and sends new ones to another server: an address that moved, as in a failover. */
  redirect(host: string, port: number): void {
    this.targetHost = host;
    this.targetPort = port;
    this.held.length = 0;
    for (const s of this.sockets) s.destroy();
  }

  restore(): void {
    this.mode = 'open';
    for (const { to, data } of this.held.splice(0)) if (!to.destroyed) to.write(data);
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }
}
