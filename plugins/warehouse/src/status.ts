import { createWarehouseClient, type BasinConfig, type WarehouseHealth } from '@basin/core';

/** the backend of a project not held by a running server, and its health (opened and closed here) */
export async function warehouseStatus(config: BasinConfig): Promise<WarehouseHealth & { tables: number | null }> {
  const client = await createWarehouseClient(config);
  try {
    await client.open();
    const health = await client.health();
    const tables = health.ok ? (await client.listTables()).length : null;
    return { ...health, tables };
  } finally {
    await client.close().catch(() => undefined);
  }
}
