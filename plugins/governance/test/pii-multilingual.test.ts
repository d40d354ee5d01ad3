import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { DuckDBWarehouseClient, Warehouse } from '@basin/core';
import { rmrf, tempDir } from '@basin/test';
import { addressScore } from '../src/pii/addresses.js';
import { classifyColumn } from '../src/pii/classify.js';
import { entityFromColumnName } from '../src/pii/column-names.js';
import { isCpf, isFrenchNir, isGermanTaxId, isSpanishDniNie, isUkNino, isUsSsn } from '../src/pii/national-ids.js';
import { scanTable } from '../src/pii/scanner.js';
import { isPhone } from '../src/pii/validators.js';
import { EVAL_SETS, evaluatePiiSet } from '../eval/pii-eval.js';

const opts = { minMatchShare: 0.5, minConfidence: 0.5 };
/** a column of `n` values cycling through `xs` */
const col = (xs: string[], n = 40) => Array.from({ length: n }, (_, i) => xs[i % xs.length]!);

test('national ids validate their check digits', () => {
  assert.ok(isCpf('505.965.050-27') && isCpf('50596505027'));
  assert.ok(!isCpf('505.965.050-28') && !isCpf('111.111.111-11'));
  assert.ok(isSpanishDniNie('12345678Z') && isSpanishDniNie('X1234567L'));
  assert.ok(!isSpanishDniNie('12345678A') && !isSpanishDniNie('X1234567A'));
  assert.ok(isFrenchNir('1 85 05 78 006 084 91') && isFrenchNir('269052A12345618'), 'Corsica (2A) counts as 19 minus 1,000,000');
  assert.ok(!isFrenchNir('1 85 05 78 006 084 36'));
  assert.ok(isGermanTaxId('86095742719') && isGermanTaxId('65 929 970 489'));
  assert.ok(!isGermanTaxId('86095742718'), 'check digit');
  assert.ok(!isGermanTaxId('12345678903'), 'no repeated digit');
  assert.ok(isUkNino('AB 12 34 56 C') && !isUkNino('GB123456A'));
  assert.ok(isUsSsn('123-45-6789') && !isUsSsn('666-45-6789'));
  assert.ok(!isPhone('505.965.050-27'), 'a CPF is not a phone');
  assert.ok(isPhone('956.368.079') && isPhone('440-615-6146 x40565'));
});

test('column-name hints in several languages', () => {
  const cases: Array<[string, string]> = [
    ['anschrift', 'address'], ['Dirección', 'address'], ['endereco', 'address'], ['住所', 'address'],
    ['nombre', 'person_name'], ['Vorname', 'person_name'], ['氏名', 'person_name'], ['holder', 'person_name'],
    ['geburtsdatum', 'date_of_birth'], ['fecha_nacimiento', 'date_of_birth'], ['生年月日', 'date_of_birth'],
    ['telefono', 'phone'], ['correo', 'email'], ['cpf', 'national_id'], ['steuer_id', 'national_id'],
  ];
  for (const [name, entity] of cases) assert.equal(entityFromColumnName(name)?.entity, entity, name);
  assert.equal(entityFromColumnName('firmware_version'), null);
});

test('person names of several languages and scripts are found by value, under neutral column names', () => {
  const names = ['Bartholomäus Caspar', 'Raymond Perrier', 'Kathleen Webb', 'Encarna Acero Neira', 'Akira Takahashi', 'Sr. Miguel Rezende', 'Frau Louisa Rath', 'Mlle Coralie Carre'];
  for (const c of ['customer', 'lead_name', 'owner', 'member', 'x1']) assert.equal(classifyColumn(c, col(names), opts)?.entity_type, 'person_name', c);
  assert.equal(classifyColumn('romaji_name', col(['Akira Takahashi', 'Yui Sato', 'Haruto Suzuki', 'Sakura Tanaka']), opts)?.entity_type, 'person_name');
  assert.equal(classifyColumn('c', col(['佐々木 淳', '田中 花子', '王伟', '古谷 あゆみ', '篠原秀雄様']), opts)?.entity_type, 'person_name');
  assert.equal(classifyColumn('c', col(['김민준', '이서연', '박 지훈', '최유진님']), opts)?.entity_type, 'person_name', 'Korean');
  // a street's name without a number is not a person
  assert.equal(classifyColumn('x', col(['Via Rossi', 'Kathleen Burgs', 'Rua Xavier', 'Calle Mayor']), opts), null);
  const found = classifyColumn('customer', col(names), opts)!;
  assert.ok(found.masked_examples.every((m) => !names.includes(m)), 'examples are masked');
  // products, companies and places made of words that are also names are not people
  assert.equal(classifyColumn('name', col(['Steel Water Bottle', 'Trail Running Shoe', 'Amber Desk Lamp', 'Garden Hose Reel']), opts), null);
  assert.equal(classifyColumn('company', col(['Frantz, Pflieger und Östringer', 'Bigdeli OHG', 'Fabre et Meyer', 'Martins Comércio', 'Baeza Hermanos']), opts), null);
});

test('addresses are found by value in several locales', () => {
  for (const a of ['Liebeltweg 69/85, 67837 Northeim', 'Ronda Lino Espada 22, Salamanca, 41465', '21 Impasse de Vaugirard, 98456 Créteil', 'Rua Xavier, 164', '745 Vincenza Mews, London KW9 5RI', '〒926-6810 秋田県南田中区5丁目5番2号', '74511 W Washington Avenue, Austin, TX 78701', 'Apenrader Str. 17c', 'bulw. Rutkowski 5/5, 02-468 Leżajsk', 'Dahlbergs Väg 53, 87352 Ensta', 'Furugränden 9, 55024 Hahult'])
    assert.ok(addressScore(a) >= 0.6, a);
  for (const a of ['Road Bike 29', 'Incredible Granite Keyboard', '10.2.3.4', 'Suite of 3 tools']) assert.equal(addressScore(a), 0, a);
  assert.equal(classifyColumn('direccion', col(['Ronda Lino Espada 22, Salamanca, 41465', 'Calle Mayor 5, Madrid, 28013']), opts)?.entity_type, 'address');
  assert.equal(classifyColumn('anschrift', col(['Liebeltweg 69/85, 67837 Northeim', 'Hauptstraße 1, 10115 Berlin']), opts)?.entity_type, 'address');
});

test('e-mails, phones and ids inside free text are found; context lowers confidence of look-alikes', () => {
  const notes = col(['Enviar contrato a pibanez@example.org', 'Cliente habitual', 'Llamar mañana', 'Escribir a ana.ruiz@example.com']);
  const v = classifyColumn('notes', notes, opts)!;
  assert.equal(v.entity_type, 'email');
  assert.ok(v.masked_examples.every((m) => !m.includes('pibanez') && !m.includes('ana.ruiz')), JSON.stringify(v.masked_examples));
  // sequential invoice numbers shaped like SSNs, version strings shaped like IPs, CPFs shaped like phones
  assert.equal(classifyColumn('reference', Array.from({ length: 40 }, (_, i) => `512-34-${String(i + 1).padStart(4, '0')}`), opts), null);
  assert.equal(classifyColumn('build', col(['10.2.3.4', '10.2.3.5', '10.3.0.1', '11.0.2.7']), opts), null);
  assert.equal(classifyColumn('firmware_version', col(['10.2.3.4', '8.1.0.12', '9.9.9.9']), opts), null);
  assert.equal(classifyColumn('documento', col(['505.965.050-27', '529.982.247-25', '123.456.789-09']), opts)?.entity_type, 'national_id');
  assert.equal(classifyColumn('client_ip', col(['10.2.3.4', '192.168.1.20', '172.16.0.9']), opts)?.entity_type, 'ip_address');
});

test('dates of birth in DATE and TIMESTAMP columns are sampled and checked; other date columns are not PII', async (t) => {
  const dir = tempDir();
  t.after(() => rmrf(dir));
  const wh = new Warehouse({ dbPath: path.join(dir, 'w.db'), servingPath: path.join(dir, 's.db') });
  await wh.open();
  t.after(() => wh.close());
  await wh.write(async (c) => {
    await c.run('CREATE SCHEMA s');
    await c.run(`CREATE TABLE s.people AS SELECT DATE '1950-01-01' + INTERVAL (i * 97) DAY AS geburtsdatum, TIMESTAMP '1960-03-01' + INTERVAL (i * 31) DAY AS date_of_birth,
      DATE '2025-01-01' + INTERVAL (i) DAY AS order_date, DATE '2025-01-01' + INTERVAL (i) DAY AS birthday_campaign FROM range(50) t(i)`);
  });
  const found = await scanTable(new DuckDBWarehouseClient(wh), 's', 'people', 100, opts);
  const by = new Map(found.map((f) => [f.column, f]));
  assert.equal(by.get('geburtsdatum')?.entity_type, 'date_of_birth');
  assert.equal(by.get('geburtsdatum')?.sample_count, 50);
  assert.equal(by.get('geburtsdatum')?.method, 'name+value');
  assert.equal(by.get('date_of_birth')?.entity_type, 'date_of_birth');
  assert.ok(!by.has('order_date') && !by.has('birthday_campaign'), JSON.stringify(found));
  assert.ok(by.get('geburtsdatum')!.masked_examples.every((m) => !/\d{4}-\d{2}-\d{2}/.test(m)));
});

for (const [name, dir] of Object.entries(EVAL_SETS)) {
  test(`multilingual evaluation set (${name}): precision >= 0.95, recall >= 0.90 overall and >= 0.8 per type`, async () => {
    const r = await evaluatePiiSet(dir);
    assert.ok(r.overall.precision >= 0.95, `precision ${r.overall.precision}: ${r.errors.join('; ')}`);
    assert.ok(r.overall.recall >= 0.9, `recall ${r.overall.recall}: ${r.errors.join('; ')}`);
    for (const [type, s] of Object.entries(r.byType)) assert.ok(s.recall >= 0.8 && s.precision >= 0.8, `${type}: ${JSON.stringify(s)}`);
    assert.equal(Object.keys(r.byType).length, 9, 'every entity type is in the set');
  });
}
