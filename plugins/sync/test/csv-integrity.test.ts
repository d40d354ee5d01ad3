import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { bootSync, rows, type SyncTestApp } from './helpers.js';

// issue 21 item 1: a CSV row whose field count differs from the header never loads shifted
const yml = (mode?: 'fail' | 'quarantine') =>
  `version: "1.0"\nsources:\n  - name: inv\n    type: local_files\n    local_files:\n      directory: data/in\n${mode ? `      malformed_rows: ${mode}\n` : ''}`;
const HEADER = 'invoice_id,customer,amount,status,paid_on\n';
const GOOD = `${HEADER}INV-1,Acme,100.50,paid,2024-01-02\nINV-2,"Bolt, Inc",200.00,paid,2024-01-05\n`;
// an unquoted thousands separator: one field too many on line 3
const SHIFTED = `${HEADER}INV-3,Acme,469.06,open,\nINV-5,Zed,7.25,paid,2024-01-04\nINV-4,Acme,1,234.50,open,2024-02-01\nINV-6,Kite,9.00,paid,2024-02-03\n`;
const write = (t: SyncTestApp, name: string, content: string) => {
  fs.mkdirSync(path.join(t.dir, 'data/in'), { recursive: true });
  fs.writeFileSync(path.join(t.dir, 'data/in', name), content);
};

const logText = async (t: SyncTestApp) => ((await t.app.http.inject({ method: 'GET', url: '/api/sources/inv/logs?limit=100' })).json().items as Array<{ message: string }>).map((l) => l.message).join('\n');

describe('CSV integrity', () => {
  const apps: SyncTestApp[] = [];
  after(async () => {
    for (const a of apps) await a.close();
  });

  it('by default a shifted row fails the sync naming the file, the line and the reason; the previous data is kept', async () => {
    const t = await bootSync(yml());
    apps.push(t);
    write(t, 'a.csv', GOOD);
    assert.equal((await t.engine.run('inv')).status, 'succeeded');
    write(t, 'b.csv', SHIFTED);
    const r = await t.engine.run('inv');
    assert.equal(r.status, 'failed');
    assert.match(r.error ?? '', /data\/in\/b\.csv/);
    assert.match(r.error ?? '', /line 4/);
    assert.match(r.error ?? '', /expected 5 fields.*found 6/);
    assert.match(r.error ?? '', /previous data was kept/);
    assert.deepEqual(await rows(t.app, 'SELECT invoice_id FROM raw_inv.inv ORDER BY 1'), [{ invoice_id: 'INV-1' }, { invoice_id: 'INV-2' }]);
    assert.equal((await rows(t.app, "SELECT count(*)::INT AS n FROM duckdb_tables() WHERE table_name LIKE '%rejects%'"))[0]!.n, 0);
  });

  it('with malformed_rows: quarantine the row goes to <table>__rejects (file, line, raw text, reason), the rest loads, and the count is reported', async () => {
    const t = await bootSync(yml('quarantine'));
    apps.push(t);
    write(t, 'a.csv', GOOD);
    assert.equal((await t.engine.run('inv')).status, 'succeeded');
    write(t, 'b.csv', SHIFTED);
    const completed: any[] = [];
    t.app.events.on('sync_completed', (p) => void completed.push(p));
    const r = await t.engine.run('inv');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    assert.equal(r.rows, 3);
    assert.equal(r.tables[0]!.rejected_rows, 1);
    assert.equal(r.tables[0]!.rejects_table, 'raw_inv.inv__rejects');
    // nothing shifted: every loaded status is a status, every paid_on a date
    const loaded = await rows(t.app, 'SELECT invoice_id, status, CAST(paid_on AS VARCHAR) AS paid_on, typeof(paid_on) AS ty FROM raw_inv.inv ORDER BY 1');
    assert.deepEqual(loaded.map((x: any) => x.invoice_id), ['INV-1', 'INV-2', 'INV-3', 'INV-5', 'INV-6']);
    for (const x of loaded as any[]) {
      assert.match(x.status, /^(paid|open)$/);
      assert.equal(x.ty, 'DATE');
    }
    const rejects = await rows(t.app, 'SELECT file, line::INT AS line, raw, reason FROM raw_inv.inv__rejects');
    assert.equal(rejects.length, 1);
    assert.deepEqual({ ...rejects[0], reason: undefined }, { file: 'data/in/b.csv', line: 4, raw: 'INV-4,Acme,1,234.50,open,2024-02-01', reason: undefined });
    assert.match(String((rejects[0] as any).reason), /Expected Number of Columns: 5 Found: 6/);
    await t.app.events.idle();
    assert.equal(completed[0]?.rejected_rows, 1);
    const logs = await logText(t);
    assert.match(logs, /data\/in\/b\.csv: 1 malformed row\(s\) quarantined into raw_inv\.inv__rejects \(first at line 4/);
    // the sources API shows it in the sync history
    const details = (await t.app.http.inject({ method: 'GET', url: '/api/sources/inv/details' })).json();
    assert.equal(details.sync_history.items[0].tables[0].rejected_rows, 1);

    // the file fixed: its rejects leave with its old rows
    write(t, 'b.csv', SHIFTED.replace('1,234.50', '"1,234.50"'));
    const again = await t.engine.run('inv');
    assert.equal(again.status, 'succeeded', again.error ?? '');
    assert.equal((await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_inv.inv__rejects'))[0]!.n, 0);
    assert.equal((await rows(t.app, 'SELECT count(*)::INT AS n FROM raw_inv.inv'))[0]!.n, 6);
  });

  it('a column widened because of a few odd values says so in the sync result', async () => {
    const t = await bootSync(yml());
    apps.push(t);
    write(t, 'a.csv', GOOD);
    assert.equal((await t.engine.run('inv')).status, 'succeeded');
    write(t, 'c.csv', `${HEADER}INV-7,Acme,5.00,paid,2024-03-01\nINV-8,Acme,6.00,open,unknown\nINV-9,Zed,7.00,paid,2024-03-02\n`);
    const r = await t.engine.run('inv');
    assert.equal(r.status, 'succeeded', r.error ?? '');
    assert.deepEqual(r.tables[0]!.widened_columns, [{ column: 'paid_on', from: 'DATE', to: 'VARCHAR', values: 1, example: 'unknown' }]);
    const logs = await logText(t);
    assert.match(logs, /raw_inv\.inv\.paid_on widened from DATE to VARCHAR: 1 value\(s\) of this sync do not fit DATE \(e\.g\. "unknown"\)/);
  });
});
