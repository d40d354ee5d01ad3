// One kinesalite server (Kinesis API in memory, from npm) per test file on a free loopback port, and
// helpers that drive it through the real @aws-sdk/client-kinesis.
import type { AddressInfo } from 'node:net';
import {
  CreateStreamCommand,
  DescribeStreamSummaryCommand,
  KinesisClient,
  ListShardsCommand,
  PutRecordsCommand,
  SplitShardCommand,
  MergeShardsCommand,
} from '@aws-sdk/client-kinesis';
import { NodeHttpHandler } from '@smithy/node-http-handler';
import kinesalite from 'kinesalite';

export const KEYS = { AWS_ACCESS_KEY_ID: 'AKIDTESTKEY', AWS_SECRET_ACCESS_KEY: 'test-secret-access-key-value' };

export interface Kinesalite {
  endpoint: string;
  client: KinesisClient;
  createStream(name: string, shards: number): Promise<void>;
  put(stream: string, rows: { key: string; data: string }[]): Promise<void>;
  shardIds(stream: string): Promise<string[]>;
  split(stream: string, shardId: string): Promise<void>;
  merge(stream: string, a: string, b: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startKinesalite(): Promise<Kinesalite> {
  const server = kinesalite({ createStreamMs: 0, deleteStreamMs: 0, updateStreamMs: 0, shardLimit: 100 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new KinesisClient({ requestHandler: new NodeHttpHandler(), endpoint, region: 'us-east-1', credentials: { accessKeyId: KEYS.AWS_ACCESS_KEY_ID, secretAccessKey: KEYS.AWS_SECRET_ACCESS_KEY } });
  const active = async (name: string) => {
    for (let i = 0; i < 100; i++) {
      const r = await client.send(new DescribeStreamSummaryCommand({ StreamName: name }));
      if (r.StreamDescriptionSummary?.StreamStatus === 'ACTIVE') return;
      await new Promise((res) => setTimeout(res, 20));
    }
    throw new Error(`stream ${name} did not become ACTIVE`);
  };
  return {
    endpoint,
    client,
    async createStream(name, shards) {
      await client.send(new CreateStreamCommand({ StreamName: name, ShardCount: shards }));
      await active(name);
    },
    async put(stream, rows) {
      const enc = new TextEncoder();
      for (let i = 0; i < rows.length; i += 500) {
        const r = await client.send(new PutRecordsCommand({ StreamName: stream, Records: rows.slice(i, i + 500).map((x) => ({ PartitionKey: x.key, Data: enc.encode(x.data) })) }));
        if (r.FailedRecordCount) throw new Error(`${r.FailedRecordCount} record(s) failed`);
      }
    },
    async shardIds(stream) {
      return ((await client.send(new ListShardsCommand({ StreamName: stream }))).Shards ?? []).map((s) => s.ShardId!);
    },
    async split(stream, shardId) {
      const shard = ((await client.send(new ListShardsCommand({ StreamName: stream }))).Shards ?? []).find((s) => s.ShardId === shardId)!;
      const lo = BigInt(shard.HashKeyRange!.StartingHashKey!);
      const hi = BigInt(shard.HashKeyRange!.EndingHashKey!);
      await client.send(new SplitShardCommand({ StreamName: stream, ShardToSplit: shardId, NewStartingHashKey: String((lo + hi) / 2n) }));
      await active(stream);
    },
    async merge(stream, a, b) {
      await client.send(new MergeShardsCommand({ StreamName: stream, ShardToMerge: a, AdjacentShardToMerge: b }));
      await active(stream);
    },
    async stop() {
      client.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
