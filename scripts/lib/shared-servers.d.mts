export function makeRunDir(): string;
export function stopSharedServers(dir: string): Promise<string[]>;
