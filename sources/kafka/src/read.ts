import type { Admin, Batch, Kafka, KafkaMessage } from 'kafkajs';
import { SourceError, type ReadItem, type SourceContext } from '@basin/sdk';
import { groupId, type KafkaConfig } from './config.js';
import type { TopicState } from './offsets.js';

/** how many rows the consumer may fetch ahead of what the sync has taken */
export const READ_AHEAD_ROWS = 50_000;

/** One partition's read of this sync: from `pos` (the next offset to read) up to `end` (its high-water mark at the start). */
export interface PartitionPlan {
  pos: number;
  end: number;
  done: boolean;
  read: number;
}
export interface TopicPlan {
  topic: string;
  resource: string;
  parts: Map<number, PartitionPlan>;
}

/**
 * Where each partition of a topic starts and ends. The start is Basin's committed offset (the
 * truth: committed with the data), else the consumer group's committed offset (a group Basin
 * adopts), else `start_from`; a full refresh starts at the earliest offset kept. The end is the
 * high-water mark now, so a busy topic cannot keep a sync running. An offset that retention has
 * already deleted starts at the earliest one kept, with a warning.
 */
export async function planTopic(admin: Admin, ctx: SourceContext<KafkaConfig>, topic: string, resource: string, saved: TopicState | undefined): Promise<TopicPlan> {
  const marks = await admin.fetchTopicOffsets(topic);
  const known = saved?.partitions ?? {};
  let group: Map<number, number> | undefined;
  const full = ctx.options.fullRefresh;
  if (!full && marks.some((m) => known[String(m.partition)] === undefined)) {
    const [offsets] = await admin.fetchOffsets({ groupId: groupId(ctx.config, ctx.name), topics: [topic] });
    group = new Map((offsets?.partitions ?? []).filter((p) => Number(p.offset) >= 0).map((p) => [p.partition, Number(p.offset)]));
  }
  const parts = new Map<number, PartitionPlan>();
  for (const m of [...marks].sort((a, b) => a.partition - b.partition)) {
    const low = Number(m.low);
    const end = Number(m.high);
    const mine = known[String(m.partition)];
    // a full refresh reads the whole retention again, whatever Basin or the group had read
    let pos = full ? low : (mine ?? group?.get(m.partition) ?? (ctx.config.start_from === 'latest' ? end : low));
    if (pos < low) {
      ctx.log.warn(`${topic}/${m.partition}: ${low - pos} message(s) from offset ${pos} were deleted by the topic's retention before they were read; reading from ${low}`);
      pos = low;
    } else if (pos > end) {
      // only a topic deleted and created again has fewer messages than were read
      ctx.log.warn(`${topic}/${m.partition}: the saved offset ${pos} is past the end (${end}); the topic was probably recreated, so it is read from ${low}`);
      pos = low;
    }
    parts.set(m.partition, { pos, end, done: pos >= end, read: 0 });
  }
  return { topic, resource, parts };
}

export function stateOf(plan: TopicPlan): TopicState {
  return { topic: plan.topic, partitions: Object.fromEntries([...plan.parts].map(([p, x]) => [String(p), x.pos])) };
}

function decode(buf: Buffer | null, format: 'json' | 'text', bad: { n: number }): unknown {
  if (buf === null) return null;
  const text = buf.toString('utf8');
  if (format === 'text') return text;
  try {
    return JSON.parse(text);
  } catch {
    bad.n++;
    return null;
  }
}

function headersOf(m: KafkaMessage): Record<string, unknown> | null {
  const h = m.headers;
  if (!h) return null;
  const keys = Object.keys(h);
  if (!keys.length) return null;
  const out: Record<string, unknown> = {};
  for (const k of keys) {
    const v = h[k];
    out[k] = Array.isArray(v) ? v.map((x) => x?.toString() ?? null) : (v?.toString() ?? null);
  }
  return out;
}

/**
 * Reads the planned partitions through one consumer of the source's group, bounded: each partition
 * up to its `end`, then paused; the read ends when all are there (or nothing arrived for
 * `idle_timeout_ms`). Positions are seeked to the plan on every (re)join, so Kafka's group offsets
 * never decide what is read; they are only committed after Basin commits (afterCommit). Each batch
 * is yielded with the topic's positions after it, so they are committed together with its rows.
 */
export async function* readTopics(kafka: Kafka, ctx: SourceContext<KafkaConfig>, plans: TopicPlan[]): AsyncGenerator<ReadItem> {
  const cfg = ctx.config;
  const group = groupId(cfg, ctx.name);
  const byTopic = new Map(plans.map((p) => [p.topic, p]));
  const todo = plans.filter((p) => [...p.parts.values()].some((x) => !x.done));
  const allDone = () => todo.every((p) => [...p.parts.values()].every((x) => x.done));
  const bad = { n: 0 };
  if (todo.length) {
    const consumer = kafka.consumer({
      groupId: group,
      sessionTimeout: cfg.session_timeout_ms,
      heartbeatInterval: Math.min(3_000, Math.floor(cfg.session_timeout_ms / 3)),
      maxBytesPerPartition: cfg.max_bytes_per_partition,
      maxBytes: Math.max(10 * 1_048_576, cfg.max_bytes_per_partition),
      maxWaitTimeInMs: 1_000,
      allowAutoTopicCreation: false,
      // a crash fails this read; the next sync starts over from the committed positions
      retry: { retries: 3, restartOnFailure: async () => false },
    });
    const queue: { items: ReadItem[]; rows: number; taken?: () => void }[] = [];
    let buffered = 0;
    let wake: (() => void) | null = null;
    const notify = () => {
      const w = wake;
      wake = null;
      w?.();
    };
    let failure: unknown = null;
    let closing = false;
    let lastProgress = Date.now();
    const finish = (topic: string, partition: number, x: PartitionPlan) => {
      x.done = true;
      consumer.pause([{ topic, partitions: [partition] }]);
    };
    consumer.on(consumer.events.GROUP_JOIN, (e) => {
      lastProgress = Date.now();
      const assigned = e.payload.memberAssignment as Record<string, number[] | undefined>;
      const missing: string[] = [];
      for (const plan of todo) {
        for (const [p, x] of plan.parts) {
          if (x.done) continue;
          if (!assigned[plan.topic]?.includes(p)) missing.push(`${plan.topic}/${p}`);
          else consumer.seek({ topic: plan.topic, partition: p, offset: String(x.pos) });
        }
        const finished = [...plan.parts].filter(([, x]) => x.done).map(([p]) => p);
        if (finished.length) consumer.pause([{ topic: plan.topic, partitions: finished }]);
      }
      if (missing.length) {
        failure ??= new SourceError(
          'group_busy',
          `The consumer group ${group} has other active members: partition(s) ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', ...' : ''} went to them. Give this source a group_id of its own in the config, or stop the other consumers of that group.`,
          { group },
        );
        notify();
      }
    });
    consumer.on(consumer.events.CRASH, (e) => {
      failure ??= e.payload.error;
      notify();
    });
    // batches of transaction markers or compacted-away records hold no message for eachBatch: the
    // position still moves past them (never past the end of this run)
    consumer.on(consumer.events.END_BATCH_PROCESS, (e) => {
      lastProgress = Date.now();
      const x = byTopic.get(e.payload.topic)?.parts.get(e.payload.partition);
      if (!x || x.done || closing) return;
      const last = Number(e.payload.lastOffset);
      if (Number.isFinite(last)) x.pos = Math.max(x.pos, Math.min(last + 1, x.end));
      if (x.pos >= x.end) finish(e.payload.topic, e.payload.partition, x);
      notify();
    });
    const eachBatch = async ({ batch, heartbeat }: { batch: Batch; heartbeat: () => Promise<void> }) => {
      const plan = byTopic.get(batch.topic);
      const x = plan?.parts.get(batch.partition);
      if (!plan || !x || x.done || closing) return;
      const rows: Record<string, unknown>[] = [];
      let next = x.pos;
      for (const m of batch.messages) {
        const off = Number(m.offset);
        // after a rebalance kafkajs may hand back what was already read; past the end waits for the next sync
        if (off < next) continue;
        if (off >= x.end) break;
        rows.push({
          kafka_partition: batch.partition,
          kafka_offset: off,
          kafka_timestamp: new Date(Number(m.timestamp)).toISOString(),
          key: decode(m.key, cfg.key_format, bad),
          value: decode(m.value, cfg.value_format, bad),
          headers: headersOf(m),
        });
        next = off + 1;
      }
      x.pos = next;
      x.read += rows.length;
      if (x.pos >= x.end) finish(batch.topic, batch.partition, x);
      if (!rows.length) return notify();
      const entry: (typeof queue)[number] = { items: [{ kind: 'records', resource: plan.resource, records: rows }, { kind: 'state', resource: plan.resource, state: { ...stateOf(plan) } }], rows: rows.length };
      queue.push(entry);
      buffered += rows.length;
      notify();
      // fetching goes on while the load writes a batch, up to READ_AHEAD_ROWS rows ahead of it
      if (buffered > READ_AHEAD_ROWS) {
        const taken = new Promise<void>((resolve) => (entry.taken = resolve));
        // a slow load must not cost the group membership (kafkajs heartbeats between batches only)
        const beat = setInterval(() => void heartbeat().catch(() => undefined), 1_000);
        try {
          await taken;
        } finally {
          clearInterval(beat);
        }
      }
    };
    const ticker = setInterval(notify, 500);
    try {
      ctx.log.info(`joining consumer group ${group} for ${todo.map((p) => p.topic).join(', ')} (a member of a killed sync holds the group up to session_timeout_ms)`);
      await consumer.connect();
      await consumer.subscribe({ topics: todo.map((p) => p.topic), fromBeginning: cfg.start_from === 'earliest' });
      const running = consumer.run({ autoCommit: false, eachBatch });
      running.catch((e: unknown) => {
        failure ??= e;
        notify();
      });
      await running;
      lastProgress = Date.now();
      for (;;) {
        if (failure) throw failure;
        const next = queue.shift();
        if (next) {
          buffered -= next.rows;
          for (const item of next.items) yield item;
          next.taken?.();
          lastProgress = Date.now();
          continue;
        }
        if (allDone() || ctx.signal.aborted) break;
        if (Date.now() - lastProgress > cfg.idle_timeout_ms) {
          const short = todo.flatMap((p) => [...p.parts].filter(([, x]) => !x.done).map(([n, x]) => `${p.topic}/${n} at ${x.pos} of ${x.end}`));
          ctx.log.warn(`no message arrived for ${cfg.idle_timeout_ms} ms although ${short.slice(0, 5).join(', ')} did not reach the high-water mark of the sync's start (transaction markers or deleted records); the next sync goes on from there`);
          break;
        }
        await new Promise<void>((r) => (wake = r));
      }
    } finally {
      closing = true;
      clearInterval(ticker);
      for (const q of queue.splice(0)) q.taken?.();
      // leaves the group at once, so the offsets can be committed after Basin's commit
      await consumer.disconnect().catch(() => undefined);
    }
  }
  // the final positions of every topic, also those with nothing new: what afterCommit tells the group
  for (const plan of plans) yield { kind: 'state', resource: plan.resource, state: { ...stateOf(plan) } };
  if (bad.n) ctx.log.warn(`${bad.n} key(s) or value(s) that are not JSON were loaded as NULL (set key_format or value_format: text to keep them as text)`);
  for (const plan of plans) {
    const read = [...plan.parts.values()].reduce((n, x) => n + x.read, 0);
    ctx.log.info(`${plan.topic}: ${read} message(s) read from ${plan.parts.size} partition(s)`);
  }
}
