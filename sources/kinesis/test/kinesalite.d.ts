// kinesalite ships no types; the part the tests use.
declare module 'kinesalite' {
  import type { Server } from 'node:http';
  export default function kinesalite(options?: { createStreamMs?: number; deleteStreamMs?: number; updateStreamMs?: number; shardLimit?: number; path?: string }): Server;
}
