/**
 * Writes the multilingual PII evaluation sets: eval/pii (the set the detectors were tuned on) and
 * eval/pii-holdout (same recipe, other seeds, not looked at while tuning), each as one CSV per table
 * and ground-truth.json. Run once with `npx tsx plugins/governance/eval/make-pii-eval.ts`; the
 * output is committed, so the bench and the test read fixed files.
 *
 * Independence from the detectors: every person name, address, city, company, product, job title
 * and phone number comes from @faker-js/faker's locale data (seeded), a source the detectors never
 * read (they use the humannames list, an English word list and their own street-type and
 * column-name rules). National ids are made here from their published check-digit rules, not with
 * the detector's validators. Column names mix the language's own words, neutral names and
 * look-alikes (version strings, invoice series, product names, companies, cities, recent dates).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fakerDE, fakerEN_GB, fakerEN_US, fakerES, fakerFR, fakerJA, fakerPT_BR, type Faker } from '@faker-js/faker';

const ROWS = 80;
const HERE = path.dirname(fileURLToPath(import.meta.url));

type Entity = 'person_name' | 'email' | 'phone' | 'address' | 'date_of_birth' | 'national_id' | 'iban' | 'credit_card' | 'ip_address' | null;
interface ColumnSpec {
  name: string;
  type: 'VARCHAR' | 'DATE' | 'TIMESTAMP' | 'DOUBLE';
  entity: Entity;
  value: (f: Faker, i: number) => string;
}

// ---- national ids from their check rules ----
const dig = (f: Faker, n: number) => f.string.numeric({ length: n, allowLeadingZeros: true });
function ssn(f: Faker): string {
  let area = 0;
  while (area === 0 || area === 666 || area >= 900) area = f.number.int({ min: 1, max: 899 });
  return `${String(area).padStart(3, '0')}-${String(f.number.int({ min: 1, max: 99 })).padStart(2, '0')}-${String(f.number.int({ min: 1, max: 9999 })).padStart(4, '0')}`;
}
function cpf(f: Faker): string {
  const d = [...dig(f, 9)].map(Number);
  for (const n of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += d[i]! * (n + 1 - i);
    d.push(((sum * 10) % 11) % 10);
  }
  const s = d.join('');
  return `${s.slice(0, 3)}.${s.slice(3, 6)}.${s.slice(6, 9)}-${s.slice(9)}`;
}
function dniOrNie(f: Faker): string {
  const letters = 'TRWAGMYFPDXBNJZSQVHLCKE';
  if (f.datatype.boolean(0.7)) {
    const n = dig(f, 8);
    return `${n}${letters[Number(n) % 23]}`;
  }
  const p = f.number.int({ min: 0, max: 2 });
  const n = dig(f, 7);
  return `${'XYZ'[p]}${n}${letters[Number(`${p}${n}`) % 23]}`;
}
function nir(f: Faker): string {
  const body = `${f.helpers.arrayElement(['1', '2'])}${dig(f, 2)}${String(f.number.int({ min: 1, max: 12 })).padStart(2, '0')}${String(f.number.int({ min: 1, max: 95 })).padStart(2, '0')}${dig(f, 3)}${dig(f, 3)}`;
  const key = String(97 - Number(BigInt(body) % 97n)).padStart(2, '0');
  return `${body[0]} ${body.slice(1, 3)} ${body.slice(3, 5)} ${body.slice(5, 7)} ${body.slice(7, 10)} ${body.slice(10, 13)} ${key}`;
}
function steuerId(f: Faker): string {
  // ten digits, one of them twice, the first not 0; ISO 7064 MOD 11,10 check digit
  for (;;) {
    const pool = f.helpers.shuffle([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]).slice(0, 9);
    const d = f.helpers.shuffle([...pool, pool[0]!]);
    if (d[0] === 0) continue;
    let product = 10;
    for (const x of d) {
      let sum = (x + product) % 10;
      if (sum === 0) sum = 10;
      product = (sum * 2) % 11;
    }
    const s = `${d.join('')}${(11 - product) % 10}`;
    return f.datatype.boolean() ? s : `${s.slice(0, 2)} ${s.slice(2, 5)} ${s.slice(5, 8)} ${s.slice(8)}`;
  }
}
function nino(f: Faker): string {
  const first = 'ABCEGHJKLMNPRSTWXYZ';
  const second = 'ABCEGHJKLMNPRSTWXYZ';
  let p = 'GB';
  while (['BG', 'GB', 'NK', 'KN', 'TN', 'NT', 'ZZ'].includes(p)) p = f.helpers.arrayElement([...first]) + f.helpers.arrayElement([...second]);
  const n = dig(f, 6);
  return f.datatype.boolean() ? `${p}${n}${f.helpers.arrayElement(['A', 'B', 'C', 'D'])}` : `${p} ${n.slice(0, 2)} ${n.slice(2, 4)} ${n.slice(4)} ${f.helpers.arrayElement(['A', 'B', 'C', 'D'])}`;
}

// ---- values shared by the tables ----
const date = (d: Date) => d.toISOString().slice(0, 10);
const birth = (f: Faker) => date(f.date.birthdate({ mode: 'age', min: 18, max: 90 }));
const recent = (f: Faker) => date(f.date.recent({ days: 700, refDate: '2026-06-01T00:00:00Z' }));
const card = (f: Faker) => f.finance.creditCardNumber(f.helpers.arrayElement(['visa', 'mastercard', 'amex']));
const withTitle = (f: Faker) => (f.datatype.boolean(0.4) ? `${f.person.prefix()} ${f.person.fullName()}` : f.person.fullName());

/** look-alike columns every table has, with values in the table's language */
const LOOKALIKES: ColumnSpec[] = [
  { name: 'product', type: 'VARCHAR', entity: null, value: (f) => f.commerce.productName() },
  { name: 'company', type: 'VARCHAR', entity: null, value: (f) => f.company.name() },
  { name: 'job_title', type: 'VARCHAR', entity: null, value: (f) => f.person.jobTitle() },
  { name: 'city', type: 'VARCHAR', entity: null, value: (f) => f.location.city() },
  { name: 'department', type: 'VARCHAR', entity: null, value: (f) => f.commerce.department() },
  { name: 'country', type: 'VARCHAR', entity: null, value: (f) => f.location.country() },
  { name: 'firmware_version', type: 'VARCHAR', entity: null, value: (f) => `${f.number.int(12)}.${f.number.int(9)}.${f.number.int(9)}.${f.number.int(99)}` },
  { name: 'build', type: 'VARCHAR', entity: null, value: (f) => `10.${f.number.int(5)}.${f.number.int(30)}.${f.number.int(200)}` },
  { name: 'invoice_no', type: 'VARCHAR', entity: null, value: (_f, i) => `512-34-${String(i + 1).padStart(4, '0')}` },
  { name: 'sku', type: 'VARCHAR', entity: null, value: (f) => `${f.string.alpha({ length: 3, casing: 'upper' })}-${dig(f, 5)}` },
  { name: 'tracking_number', type: 'VARCHAR', entity: null, value: (f) => f.string.numeric({ length: 16, allowLeadingZeros: false }) },
  { name: 'order_date', type: 'DATE', entity: null, value: (f) => recent(f) },
  { name: 'created_at', type: 'TIMESTAMP', entity: null, value: (f) => f.date.recent({ days: 300, refDate: '2026-06-01T00:00:00Z' }).toISOString().replace('T', ' ').slice(0, 19) },
  { name: 'amount', type: 'DOUBLE', entity: null, value: (f) => f.commerce.price() },
  { name: 'batch_ref', type: 'VARCHAR', entity: null, value: (_f, i) => `${(4000123 + i).toString()}` },
];

interface TableSpec {
  table: string;
  faker: Faker;
  columns: ColumnSpec[];
}

const S = (name: string, entity: Entity, value: ColumnSpec['value'], type: ColumnSpec['type'] = 'VARCHAR'): ColumnSpec => ({ name, type, entity, value });

const TABLES: TableSpec[] = [
  {
    table: 'customers_en_us',
    faker: fakerEN_US,
    columns: [
      S('customer', 'person_name', (f) => f.person.fullName()),
      S('lead_name', 'person_name', withTitle),
      S('contact', 'email', (f) => f.internet.email()),
      S('phone', 'phone', (f) => f.phone.number()),
      S('mailing_address', 'address', (f) => `${f.location.streetAddress()}, ${f.location.city()}, ${f.location.state({ abbreviated: true })} ${f.location.zipCode()}`),
      S('dob', 'date_of_birth', birth, 'DATE'),
      S('identifier', 'national_id', ssn),
      S('payment_card', 'credit_card', card),
      S('last_login_ip', 'ip_address', (f) => f.internet.ipv4()),
      S('notes', 'email', (f) => (f.datatype.boolean() ? `Send the signed contract to ${f.internet.email()} by Friday` : f.helpers.arrayElement(['Prefers morning calls', 'VIP since 2019', 'Asked about bulk discount', 'Renewal due next quarter']))),
    ],
  },
  {
    table: 'kunden_de_de',
    faker: fakerDE,
    columns: [
      S('kunde', 'person_name', withTitle),
      S('ansprechpartner', 'person_name', (f) => f.person.fullName()),
      S('e_mail', 'email', (f) => f.internet.email()),
      S('telefon', 'phone', (f) => f.phone.number()),
      S('anschrift', 'address', (f) => `${f.location.streetAddress()}, ${f.location.zipCode()} ${f.location.city()}`),
      S('geburtsdatum', 'date_of_birth', birth, 'DATE'),
      S('steuer_id', 'national_id', steuerId),
      S('bankverbindung', 'iban', (f) => f.finance.iban({ formatted: f.datatype.boolean(), countryCode: 'DE' })),
      S('karte', 'credit_card', card),
      S('ip_adresse', 'ip_address', (f) => f.internet.ipv4()),
      S('bemerkung', 'email', (f) => (f.datatype.boolean() ? `Rechnung bitte an ${f.internet.email()} schicken` : f.helpers.arrayElement(['Stammkunde seit Jahren', 'Lieferung nur vormittags', 'Rückruf erbeten', 'Zahlt per Lastschrift']))),
    ],
  },
  {
    table: 'clients_fr_fr',
    faker: fakerFR,
    columns: [
      S('titulaire', 'person_name', withTitle),
      S('nom_complet', 'person_name', (f) => f.person.fullName()),
      S('courriel', 'email', (f) => f.internet.email()),
      S('portable', 'phone', (f) => f.phone.number()),
      S('adresse', 'address', (f) => `${f.location.streetAddress()}, ${f.location.zipCode()} ${f.location.city()}`),
      S('date_naissance', 'date_of_birth', birth, 'DATE'),
      S('nir', 'national_id', nir),
      S('rib', 'iban', (f) => f.finance.iban({ formatted: true, countryCode: 'FR' })),
      S('carte', 'credit_card', card),
      S('adresse_ip', 'ip_address', (f) => f.internet.ipv4()),
      S('commentaire', 'email', (f) => (f.datatype.boolean() ? `Merci d'envoyer le devis à ${f.internet.email()} rapidement` : f.helpers.arrayElement(['Client fidèle', 'Livraison le matin', 'Rappeler la semaine prochaine', 'Paiement par virement']))),
    ],
  },
  {
    table: 'clientes_es_es',
    faker: fakerES,
    columns: [
      S('nombre', 'person_name', (f) => f.person.fullName()),
      S('cliente', 'person_name', withTitle),
      S('correo', 'email', (f) => f.internet.email()),
      S('movil', 'phone', (f) => f.phone.number()),
      S('direccion', 'address', (f) => `${f.location.streetAddress()}, ${f.location.city()}, ${f.location.zipCode()}`),
      S('fecha_nacimiento', 'date_of_birth', birth, 'DATE'),
      S('dni', 'national_id', dniOrNie),
      S('cuenta', 'iban', (f) => f.finance.iban({ formatted: f.datatype.boolean(), countryCode: 'ES' })),
      S('tarjeta', 'credit_card', card),
      S('ip', 'ip_address', (f) => f.internet.ipv4()),
      S('observaciones', 'email', (f) => (f.datatype.boolean() ? `Enviar contrato a ${f.internet.email()} antes del viernes` : f.helpers.arrayElement(['Cliente habitual', 'Entrega por la tarde', 'Pide factura en papel', 'Pago con transferencia']))),
    ],
  },
  {
    table: 'clientes_pt_br',
    faker: fakerPT_BR,
    columns: [
      S('nome', 'person_name', (f) => f.person.fullName()),
      S('responsavel', 'person_name', withTitle),
      S('email', 'email', (f) => f.internet.email()),
      S('celular', 'phone', (f) => f.phone.number()),
      S('endereco', 'address', (f) => `${f.location.streetAddress()}, ${f.location.city()} - ${f.location.state({ abbreviated: true })}, ${f.location.zipCode()}`),
      S('data_nascimento', 'date_of_birth', birth, 'DATE'),
      S('documento', 'national_id', cpf),
      S('conta', 'iban', (f) => f.finance.iban({ formatted: true, countryCode: 'BR' })),
      S('cartao', 'credit_card', card),
      S('ip_origem', 'ip_address', (f) => f.internet.ipv4()),
      S('observacao', 'email', (f) => (f.datatype.boolean() ? `Enviar o boleto para ${f.internet.email()} até sexta` : f.helpers.arrayElement(['Cliente antigo', 'Entrega pela manhã', 'Ligar de volta amanhã', 'Pagamento via Pix']))),
    ],
  },
  {
    table: 'members_en_gb',
    faker: fakerEN_GB,
    columns: [
      S('member', 'person_name', (f) => f.person.fullName()),
      S('account_holder', 'person_name', withTitle),
      S('email', 'email', (f) => f.internet.email()),
      S('mobile', 'phone', (f) => f.phone.number()),
      S('address', 'address', (f) => `${f.location.streetAddress()}, ${f.location.city()} ${f.location.zipCode()}`),
      S('date_of_birth', 'date_of_birth', (f) => `${birth(f)} 00:00:00`, 'TIMESTAMP'),
      S('ni_number', 'national_id', nino),
      S('iban', 'iban', (f) => f.finance.iban({ formatted: f.datatype.boolean(), countryCode: 'GB' })),
      S('card_number', 'credit_card', card),
      S('remote_addr', 'ip_address', (f) => f.internet.ipv6()),
      S('comments', 'phone', (f) => (f.datatype.boolean() ? `Please ring ${f.phone.number({ style: 'international' })} after 6pm` : f.helpers.arrayElement(['Gold member', 'Prefers e-mail contact', 'Moved house last year', 'Paid by direct debit']))),
    ],
  },
  {
    table: 'kokyaku_ja_jp',
    faker: fakerJA,
    columns: [
      S('氏名', 'person_name', (f) => `${f.person.lastName()} ${f.person.firstName()}`),
      S('担当者', 'person_name', (f) => `${f.person.lastName()}${f.person.firstName()}${f.datatype.boolean() ? '様' : ''}`),
      S('メール', 'email', (f) => f.internet.email()),
      S('電話番号', 'phone', (f) => f.phone.number()),
      S('住所', 'address', (f) => `〒${f.location.zipCode()} ${f.location.state()}${f.location.city()}${f.location.streetAddress()}`),
      S('生年月日', 'date_of_birth', birth, 'DATE'),
      S('口座', 'iban', (f) => f.finance.iban()),
      S('カード', 'credit_card', card),
      S('接続元', 'ip_address', (f) => f.internet.ipv4()),
      S('備考', 'email', (f) => (f.datatype.boolean() ? `見積書を ${f.internet.email()} に送ってください` : f.helpers.arrayElement(['常連のお客様', '午前中に配達', '折り返し電話希望', '振込で支払い']))),
    ],
  },
  {
    table: 'contacts_mixed',
    faker: fakerEN_US,
    columns: [
      S('owner', 'person_name', (_f, i) => mixedFaker(i).person.fullName()),
      S('holder', 'person_name', (_f, i) => withTitle(mixedFaker(i + 1))),
      S('contact_email', 'email', (_f, i) => mixedFaker(i).internet.email()),
      S('phone_number', 'phone', (_f, i) => mixedFaker(i).phone.number({ style: 'international' })),
      S('location', 'address', (_f, i) => mixedFaker(i + 2).location.streetAddress(true)),
      S('birthday', 'date_of_birth', birth, 'DATE'),
      S('national_number', 'national_id', (f, i) => [ssn, cpf, dniOrNie, nir, nino][i % 5]!(f)),
      S('account', 'iban', (f) => f.finance.iban()),
      S('pan', 'credit_card', card),
      S('source_ip', 'ip_address', (f) => (f.datatype.boolean() ? f.internet.ipv6() : f.internet.ipv4())),
      S('message', 'email', (_f, i) => (i % 2 ? `Contact: ${mixedFaker(i).internet.email()}` + ' for the renewal' : 'No follow-up needed yet')),
    ],
  },
];

const MIXED = [fakerEN_US, fakerDE, fakerFR, fakerES, fakerPT_BR, fakerEN_GB, fakerJA];
const mixedFaker = (i: number) => MIXED[i % MIXED.length]!;

const csvCell = (v: string) => (/[",\n]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v);

function write(OUT: string, seedBase: number): void {
  fs.mkdirSync(OUT, { recursive: true });
  const truth: Array<{ table: string; column: string; type: string; entity: Entity }> = [];
  for (const [ti, t] of TABLES.entries()) {
    for (const [k, f] of [t.faker, ...MIXED].entries()) f.seed(seedBase + 1000 * ti + k);
    const cols = [...t.columns, ...LOOKALIKES];
    const lines = [cols.map((c) => csvCell(c.name)).join(',')];
    for (let i = 0; i < ROWS; i++) {
      // real columns have gaps: one PII value in ten is empty
      lines.push(cols.map((c) => (c.entity && c.type === 'VARCHAR' && t.faker.number.float() < 0.1 ? '' : csvCell(c.value(t.faker, i)))).join(','));
    }
    fs.writeFileSync(path.join(OUT, `${t.table}.csv`), `${lines.join('\n')}\n`);
    for (const c of cols) truth.push({ table: t.table, column: c.name, type: c.type, entity: c.entity });
  }
  fs.writeFileSync(path.join(OUT, 'ground-truth.json'), `${JSON.stringify(truth, null, 1)}\n`);
  console.log(`wrote ${TABLES.length} tables, ${truth.filter((c) => c.entity).length} PII columns and ${truth.filter((c) => !c.entity).length} look-alikes to ${OUT}`);
}

write(path.join(HERE, 'pii'), 0);
write(path.join(HERE, 'pii-holdout'), 500_000);
