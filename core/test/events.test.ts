import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventBus } from '../src/index.js';

test('a failing listener does not break the emitter or the other listeners', async () => {
  const failures: string[] = [];
  const bus = new EventBus((event) => failures.push(event));
  const seen: unknown[] = [];
  bus.on('thing' as never, () => {
    throw new Error('boom');
  });
  bus.on('thing' as never, async () => {
    await Promise.reject(new Error('async boom'));
  });
  bus.on('thing' as never, (payload) => void seen.push(payload));
  await bus.emit('thing' as never, { n: 1 } as never);
  assert.deepEqual(seen, [{ n: 1 }]);
  assert.deepEqual(failures, ['thing', 'thing']);
});

test('onAny receives envelopes with type and ISO timestamp; unsubscribe stops delivery', async () => {
  const bus = new EventBus(undefined, () => new Date('2026-02-03T04:05:06Z'));
  const got: Array<{ type: string; timestamp: string }> = [];
  const off = bus.onAny((e) => void got.push({ type: e.type, timestamp: e.timestamp }));
  await bus.emit('a' as never, {} as never);
  off();
  await bus.emit('b' as never, {} as never);
  assert.deepEqual(got, [{ type: 'a', timestamp: '2026-02-03T04:05:06.000Z' }]);
});

test('idle() waits for slow listeners', async () => {
  const bus = new EventBus();
  let done = false;
  bus.on('slow' as never, async () => {
    await new Promise((r) => setTimeout(r, 30));
    done = true;
  });
  void bus.emit('slow' as never, {} as never);
  assert.equal(done, false);
  await bus.idle();
  assert.equal(done, true);
});
