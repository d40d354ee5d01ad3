// Types of 60-kafka.mjs for test/support/kafka.ts.
export declare const KAFKA_VERSION: string;
export declare function kafkaHome(): string;
export declare function kafkaLibDir(): string;
export declare function kafkaCacheValid(home?: string): boolean;
declare const install: () => void;
export default install;
