// A throwaway Apache Kafka broker for tests and benches: one KRaft node (broker and controller in one
// JVM) on free loopback ports, its storage formatted with a random cluster id in a temp dir, a small
// heap. Client listeners: PLAINTEXT, SASL_PLAINTEXT with one user (basin / SASL_PASSWORD) for PLAIN,
// SCRAM-SHA-256 and SCRAM-SHA-512 (the authentication tests), and with `tls` an SSL one with a self-signed certificate (keytool). stop() ends the JVM and removes the dir. The jars come from
// scripts/setup.d/60-kafka.mjs; start it once per test file.
import { execFileSync, spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { accepts, freePort, logTail, trackServer } from './server-process.js';
import { KAFKA_VERSION, kafkaCacheValid, kafkaHome, kafkaLibDir } from '../../scripts/setup.d/60-kafka.mjs';

export interface KafkaBroker {
  /** host:port of the PLAINTEXT listener */
  bootstrap: string;
  /** host:port of the SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) */
  saslBootstrap: string;
  saslUser: string;
  saslPassword: string;
  /** with `tls`: host:port of the SSL listener, and the PEM of its self-signed certificate */
  sslBootstrap?: string;
  caPem?: string;
  /** milliseconds from spawning the JVM to the listener accepting connections */
  startMs: number;
  stop(): Promise<void>;
}

const SASL_USER = 'basin';
const SASL_PASSWORD = 'kafka-test-sasl-secret-7f3a';




/** a self-signed certificate for 127.0.0.1 in a PKCS12 keystore (keytool from the JDK), and its PEM */
function selfSigned(dir: string): { keystore: string; password: string; pem: string } {
  const keystore = path.join(dir, 'broker.p12');
  const password = crypto.randomBytes(12).toString('hex');
  const keytool = ['-keystore', keystore, '-storetype', 'PKCS12', '-storepass', password, '-alias', 'broker'];
  execFileSync('keytool', ['-genkeypair', ...keytool, '-keypass', password, '-keyalg', 'RSA', '-keysize', '2048', '-dname', 'CN=127.0.0.1', '-ext', 'SAN=ip:127.0.0.1,dns:localhost', '-validity', '2'], { stdio: 'pipe' });
  const pem = execFileSync('keytool', ['-exportcert', '-rfc', ...keytool], { encoding: 'utf8' });
  return { keystore, password, pem };
}

export async function startKafka(opts: { heap?: string; tls?: boolean } = {}): Promise<KafkaBroker> {
  if (!kafkaCacheValid()) throw new Error(`Kafka ${KAFKA_VERSION} broker jars are missing or damaged in ${kafkaHome()}; run: node scripts/setup.mjs kafka`);
  const classpath = path.join(kafkaLibDir(), '*');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'basin-kafka-'));
  const [port, controllerPort, saslPort, sslPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const tls = opts.tls ? selfSigned(dir) : null;
  const props = path.join(dir, 'server.properties');
  fs.writeFileSync(
    props,
    [
      'process.roles=broker,controller',
      'node.id=1',
      `controller.quorum.voters=1@127.0.0.1:${controllerPort}`,
      `listeners=PLAINTEXT://127.0.0.1:${port},CONTROLLER://127.0.0.1:${controllerPort},SASL_PLAINTEXT://127.0.0.1:${saslPort}${tls ? `,SSL://127.0.0.1:${sslPort}` : ''}`,
      `advertised.listeners=PLAINTEXT://127.0.0.1:${port},SASL_PLAINTEXT://127.0.0.1:${saslPort}${tls ? `,SSL://127.0.0.1:${sslPort}` : ''}`,
      'controller.listener.names=CONTROLLER',
      'listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,SSL:SSL',
      ...(tls ? [`ssl.keystore.location=${tls.keystore}`, `ssl.keystore.password=${tls.password}`, `ssl.key.password=${tls.password}`, 'ssl.keystore.type=PKCS12'] : []),
      'inter.broker.listener.name=PLAINTEXT',
      'sasl.enabled.mechanisms=PLAIN,SCRAM-SHA-256,SCRAM-SHA-512',
      `listener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_${SASL_USER}="${SASL_PASSWORD}";`,
      // SCRAM users live in the cluster metadata: the storage format below adds them
      'listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      'listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;',
      `log.dirs=${path.join(dir, 'data')}`,
      'num.partitions=1',
      'offsets.topic.replication.factor=1',
      'offsets.topic.num.partitions=1',
      'transaction.state.log.replication.factor=1',
      'transaction.state.log.min.isr=1',
      'share.coordinator.state.topic.replication.factor=1',
      'share.coordinator.state.topic.min.isr=1',
      // a test's consumer group starts at once instead of waiting 3 s for more members
      'group.initial.rebalance.delay.ms=0',
      '',
    ].join('\n'),
  );
  const heap = opts.heap ?? '256m';
  const jvm = [`-Xmx${heap}`, '-Xms64m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-Djava.awt.headless=true', '-cp', classpath];
  // a base64url id may begin with "-", which the tool's argument parser takes for an option (a CI run
  // failed on one); Kafka's own Uuid.randomUuid() draws again in that case, and so do we
  let clusterId = '-';
  while (clusterId.startsWith('-')) clusterId = crypto.randomBytes(16).toString('base64url');
  const scram = ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((m) => ['--add-scram', `${m}=[name=${SASL_USER},password=${SASL_PASSWORD}]`]);
  execFileSync('java', [...jvm, 'kafka.tools.StorageTool', 'format', '-t', clusterId, '-c', props, ...scram], { stdio: 'pipe' });
  const logFile = path.join(dir, 'broker.log');
  const out = fs.openSync(logFile, 'w');
  const t0 = Date.now();
  const proc = spawn('java', [...jvm, 'kafka.Kafka', props], { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const server = trackServer(proc, dir);
  const listening = async () => (await accepts(port)) && (await accepts(saslPort)) && (!tls || (await accepts(sslPort)));
  await server.waitReady(listening, 600, () => new Error(`the Kafka broker did not start (exit ${proc.exitCode}):\n${logTail(logFile, 3000)}`));
  return {
    bootstrap: `127.0.0.1:${port}`,
    saslBootstrap: `127.0.0.1:${saslPort}`,
    saslUser: SASL_USER,
    saslPassword: SASL_PASSWORD,
    ...(tls ? { sslBootstrap: `127.0.0.1:${sslPort}`, caPem: tls.pem } : {}),
    startMs: Date.now() - t0,
    stop: server.stop,
  };
}
