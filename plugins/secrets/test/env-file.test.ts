// The .env document: one variable changes, every other line stays as written, and whatever value is
// written reads back unchanged through dotenv (the parser config.env() uses).
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { test } from 'node:test';
import dotenv from 'dotenv';
import { EnvDocument, quoteEnvValue } from '../src/env-file.js';

const original = `# API tokens
STRIPE_KEY=sk_test_1

# the CRM
export HUBSPOT_TOKEN='pat-1 2'
MULTI="line one
line two"
# trailing comment
`;

test('set and unset keep comments, blank lines, order and other variables', () => {
  const doc = EnvDocument.parse(original);
  assert.deepEqual(doc.keys(), ['STRIPE_KEY', 'HUBSPOT_TOKEN', 'MULTI']);
  assert.equal(doc.toString(), original, 'an untouched document is byte-identical');
  doc.set('HUBSPOT_TOKEN', 'new value');
  doc.set('NEW_ONE', 'x');
  assert.equal(doc.unset('STRIPE_KEY'), true);
  assert.equal(doc.unset('NOPE'), false);
  const text = doc.toString();
  assert.equal(text, `# API tokens\n\n# the CRM\nHUBSPOT_TOKEN='new value'\nMULTI="line one\nline two"\n# trailing comment\nNEW_ONE=x\n`);
  assert.deepEqual(dotenv.parse(text), { HUBSPOT_TOKEN: 'new value', MULTI: 'line one\nline two', NEW_ONE: 'x' });
});

test('a duplicated variable is set once, where it first appeared', () => {
  const doc = EnvDocument.parse('A=1\nB=2\nA=3\n');
  doc.set('A', '9');
  assert.equal(doc.toString(), 'A=9\nB=2\n');
});

test('every value dotenv can carry reads back unchanged', () => {
  const samples = ['', 'plain', 'with space', "it's", 'has # hash', 'a"b', 'x`y', 'line1\nline2', "quote ' and\nnewline", 'tab\there', ' lead and trail ', '=eq=', '$HOME', 'back\\slash', 'ünïcødé ✓', "mix ' \" \nlines"];
  const alphabet = "ab #'\"`\n\\=$ _-.:";
  for (let i = 0; i < 400; i++) samples.push(Array.from({ length: 1 + (i % 12) }, () => alphabet[crypto.randomInt(alphabet.length)]).join(''));
  let refused = 0;
  for (const v of samples) {
    let line: string;
    try {
      line = `K=${quoteEnvValue(v)}`;
    } catch {
      refused++;
      assert.ok(/['\r]/.test(v) && /[`\r]/.test(v) && /"|\\[nr]/.test(v), `refused only when no quoting fits: ${JSON.stringify(v)}`);
      continue;
    }
    const doc = EnvDocument.parse(`# c\n${line}\nZ=1\n`);
    assert.deepEqual(doc.keys(), ['K', 'Z'], JSON.stringify(v));
    assert.deepEqual(dotenv.parse(doc.toString()), { K: v, Z: '1' }, JSON.stringify(v));
  }
  assert.ok(refused < samples.length / 4);
});
