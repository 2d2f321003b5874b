/** Raw HTTP for tests of framing: bytes as written, and everything the server wrote back. */
import { connect } from 'node:net';

/**
 * Sends `request` to 127.0.0.1:`port` and resolves to everything written back (as Latin-1 text) once the
 * server closes the connection or is silent for `quietMs`. A connection error ends it with what arrived.
 */
export function rawHttp(port: number, request: string | Buffer, options: { quietMs?: number; localAddress?: string } = {}): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: options.localAddress });
    let out = '';
    let timer: NodeJS.Timeout;
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(out);
    };
    const arm = () => {
      clearTimeout(timer);
      timer = setTimeout(done, options.quietMs ?? 400);
    };
    socket.on('data', (d) => {
      out += d.toString('latin1');
      arm();
    });
    socket.on('end', done);
    socket.on('error', done);
    socket.write(request);
    arm();
  });
}
