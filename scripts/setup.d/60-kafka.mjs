// Apache Kafka's broker (KRaft mode) for the kafka source's tests and bench: test/support/kafka.ts
// runs kafka.Kafka from these jars on free loopback ports. The jars come from Maven Central through
// `mvn dependency:copy-dependencies` of a generated pom (`-C`: Maven refuses a jar whose .sha1 does
// not match) into ~/.cache/basin/kafka-<version>/libs; a SHA256SUMS file written then is checked on
// every later run, so a damaged cache is fetched again instead of used. Idempotent. Java 17 and
// Maven come from Debian.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureApt } from '../lib/apt.mjs';

export const KAFKA_VERSION = '4.1.1';
export const kafkaHome = () => process.env.BASIN_KAFKA_DIR ?? path.join(os.homedir(), '.cache', 'basin', `kafka-${KAFKA_VERSION}`);
export const kafkaLibDir = () => path.join(kafkaHome(), 'libs');

const sha256 = (file) => crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/** true when every jar listed in SHA256SUMS is there with its checksum (and the list names the broker jar) */
export function kafkaCacheValid(home = kafkaHome()) {
  const sums = path.join(home, 'SHA256SUMS');
  if (!fs.existsSync(sums)) return false;
  const lines = fs.readFileSync(sums, 'utf8').trim().split('\n').filter(Boolean);
  if (!lines.some((l) => l.endsWith(`  kafka_2.13-${KAFKA_VERSION}.jar`))) return false;
  return lines.every((l) => {
    const [sum, name] = l.split('  ');
    const file = path.join(home, 'libs', name);
    return fs.existsSync(file) && sha256(file) === sum;
  });
}

const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>basin.setup</groupId>
  <artifactId>kafka-broker</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>
    <dependency><groupId>org.apache.kafka</groupId><artifactId>kafka_2.13</artifactId><version>${KAFKA_VERSION}</version></dependency>
  </dependencies>
</project>
`;

export default () => {
  const home = kafkaHome();
  if (kafkaCacheValid(home)) {
    console.log(`[setup] Kafka ${KAFKA_VERSION} broker jars up to date at ${home}`);
    return;
  }
  ensureApt(['openjdk-17-jre-headless', 'maven']);
  fs.mkdirSync(home, { recursive: true });
  const work = fs.mkdtempSync(path.join(home, '.fetch-'));
  try {
    fs.writeFileSync(path.join(work, 'pom.xml'), POM);
    const out = path.join(work, 'libs');
    console.log(`[setup] fetching Kafka ${KAFKA_VERSION} (org.apache.kafka:kafka_2.13 and its runtime jars, about 45 MB) from Maven Central`);
    execFileSync('mvn', ['-B', '-q', '-C', '-f', path.join(work, 'pom.xml'), 'dependency:copy-dependencies', `-DoutputDirectory=${out}`, '-DincludeScope=runtime'], { stdio: 'inherit' });
    const jars = fs.readdirSync(out).filter((f) => f.endsWith('.jar')).sort();
    if (!jars.includes(`kafka_2.13-${KAFKA_VERSION}.jar`)) throw new Error(`Maven did not deliver kafka_2.13-${KAFKA_VERSION}.jar`);
    const sums = jars.map((j) => `${sha256(path.join(out, j))}  ${j}`).join('\n') + '\n';
    // swap in whole: a run interrupted before this leaves the previous (or no) cache, never half of one
    fs.rmSync(path.join(home, 'libs'), { recursive: true, force: true });
    fs.renameSync(out, path.join(home, 'libs'));
    fs.writeFileSync(path.join(home, 'SHA256SUMS.tmp'), sums);
    fs.renameSync(path.join(home, 'SHA256SUMS.tmp'), path.join(home, 'SHA256SUMS'));
    console.log(`[setup] Kafka ${KAFKA_VERSION} broker: ${jars.length} jars in ${path.join(home, 'libs')}`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
};
