import { defineSource, SourceError, type ResourceSpec } from '@basin/sdk';
import type { Admin } from 'kafkajs';
import { describeError, makeKafka, where } from './client.js';
import { groupId, KafkaConfig } from './config.js';
import { commitGroupOffsets, isTopicState, type TopicState } from './offsets.js';
import { planTopic, readTopics, type TopicPlan } from './read.js';

/** a warehouse-safe resource name for a topic */
export function resourceName(topic: string): string {
  const s = topic.toLowerCase().replace(/[^a-z0-9_]+/g, '_');
  return /^[a-z_]/.test(s) ? s : `t_${s}`;
}

function spec(topic: string, cfg: KafkaConfig): ResourceSpec {
  return {
    name: resourceName(topic),
    columns: [
      { name: 'kafka_partition', type: 'INTEGER', nullable: false },
      { name: 'kafka_offset', type: 'BIGINT', nullable: false },
      { name: 'kafka_timestamp', type: 'TIMESTAMPTZ', nullable: true },
      { name: 'key', type: cfg.key_format === 'json' ? 'JSON' : 'VARCHAR', nullable: true },
      { name: 'value', type: cfg.value_format === 'json' ? 'JSON' : 'VARCHAR', nullable: true },
      { name: 'headers', type: 'JSON', nullable: true },
    ],
    primaryKey: ['kafka_partition', 'kafka_offset'],
    cursorField: 'kafka_offset',
    // merged on (partition, offset): a message is never loaded twice, even if an offset were replayed
    writeDisposition: 'merge',
    description: `Kafka topic ${topic}`,
  };
}

/** the configured topics (checked to exist), or every topic but the internal ones */
async function topicNames(admin: Admin, cfg: KafkaConfig): Promise<string[]> {
  const existing = await admin.listTopics();
  return distinctTables(cfg.topics.length ? configured(existing, cfg) : existing.filter((t) => !t.startsWith('__')).sort());
}

/** two topics that would load into one table (`Orders` and `orders`) are refused rather than mixed */
function distinctTables(topics: string[]): string[] {
  const seen = new Map<string, string>();
  for (const t of topics) {
    const other = seen.get(resourceName(t));
    if (other !== undefined) throw new SourceError('config_invalid', `Topics ${other} and ${t} would both load into the table ${resourceName(t)}; list only one of them in topics.`);
    seen.set(resourceName(t), t);
  }
  return topics;
}

function configured(existing: string[], cfg: KafkaConfig): string[] {
  const missing = cfg.topics.filter((t) => !existing.includes(t));
  if (missing.length) {
    const some = existing.filter((t) => !t.startsWith('__')).sort().slice(0, 10);
    throw new SourceError('not_found', `Topic(s) ${missing.join(', ')} do not exist on ${where(cfg)}. Check topics in the config${some.length ? ` (topics there: ${some.join(', ')}${existing.length > some.length ? ', ...' : ''})` : ''}.`, { topics: missing });
  }
  return cfg.topics;
}

async function withAdmin<T>(ctx: Parameters<typeof makeKafka>[0], fn: (admin: Admin) => Promise<T>): Promise<T> {
  const admin = (await makeKafka(ctx)).admin();
  try {
    await admin.connect();
    return await fn(admin);
  } catch (e) {
    throw describeError(e, ctx.config);
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}

/**
 * Kafka topics into the warehouse: one table per topic, each partition read from Basin's committed
 * offset up to its high-water mark at the start of the sync; the offsets are committed with the
 * rows and, after that commit, to the source's consumer group.
 */
export default defineSource({
  type: 'kafka',
  title: 'Kafka',
  category: 'stream',
  authKind: 'basic',
  wizard: true,
  configKey: 'generic',
  configSchema: KafkaConfig,
  capabilities: { incremental: true, dateRange: false, customQueries: false, performanceMetrics: false },
  discoverSelects: true,
  validateConfig(cfg) {
    return cfg.security_protocol.startsWith('sasl_') && !cfg.username ? [{ path: '/username', message: `security_protocol ${cfg.security_protocol} needs username (and the password in the variable named by password_env)` }] : [];
  },
  async check(ctx) {
    try {
      const names = await withAdmin(ctx, (admin) => topicNames(admin, ctx.config));
      return { ok: true, message: `Connected to ${where(ctx.config)}; ${names.length} topic(s) to read with consumer group ${groupId(ctx.config, ctx.name)}.` };
    } catch (e) {
      return { ok: false, message: describeError(e, ctx.config).message };
    }
  },
  async discover(ctx) {
    return (await withAdmin(ctx, (admin) => topicNames(admin, ctx.config))).map((t) => spec(t, ctx.config));
  },
  async *read(ctx, resources, state) {
    const wanted = new Set(resources.map((r) => r.name));
    const plans = await withAdmin(ctx, async (admin) => {
      const out: TopicPlan[] = [];
      for (const topic of await topicNames(admin, ctx.config)) {
        const resource = resourceName(topic);
        if (!wanted.has(resource)) continue;
        const saved = state[resource];
        out.push(await planTopic(admin, ctx, topic, resource, !ctx.options.fullRefresh && isTopicState(saved) && saved.topic === topic ? saved : undefined));
      }
      return out;
    });
    try {
      yield* readTopics(await makeKafka(ctx), ctx, plans);
    } catch (e) {
      if (ctx.signal.aborted) throw new SourceError('cancelled', 'the read was cancelled');
      throw describeError(e, ctx.config);
    }
  },
  async afterCommit(ctx, state) {
    const topics: TopicState[] = [];
    for (const s of Object.values(state)) if (isTopicState(s)) topics.push(s);
    try {
      await commitGroupOffsets(await makeKafka(ctx, 2), groupId(ctx.config, ctx.name), topics);
    } catch (e) {
      throw describeError(e, ctx.config);
    }
    ctx.log.info(`committed the offsets of ${topics.length} topic(s) to consumer group ${groupId(ctx.config, ctx.name)}`);
  },
});
