import net from 'node:net';

/** whether nothing listens on 127.0.0.1:`port` now (a companion is about to be given it; it may still be taken before it binds) */
export function localPortFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}
