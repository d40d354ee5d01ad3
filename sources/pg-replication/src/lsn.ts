/** A PostgreSQL log sequence number ("16/B374D848") as a 64-bit integer and back. */
export function lsnToBigint(lsn: string): bigint {
  const m = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(lsn);
  if (!m) throw new Error(`not an LSN: ${lsn}`);
  return (BigInt(`0x${m[1]}`) << 32n) | BigInt(`0x${m[2]}`);
}

export function formatLsn(n: bigint): string {
  return `${(n >> 32n).toString(16).toUpperCase()}/${(n & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** the LSN as a JSON number for the _basin_lsn column (exact below 2^53, i.e. 8 PiB of WAL) */
export function lsnNumber(n: bigint): number {
  return Number(n);
}
