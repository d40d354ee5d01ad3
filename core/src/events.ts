/**
 * Typed in-process event bus. Plugins extend `BasinEvents` by declaration merging in their contract
 * entry (`plugins/<x>/src/contract.ts`):
 *   declare module '@basin/core' { interface BasinEvents { sync_started: { source: string } } }
 * Only declared events can be emitted or listened to, and each payload is checked against its declaration;
 * a listener sees an event's type once it imports the declaring plugin's contract.
 * Listeners run isolated: one that throws or rejects is logged and never breaks the emitter or other listeners.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface BasinEvents {}

export type EventName = keyof BasinEvents & string;
export type EventPayload<K extends EventName> = BasinEvents[K];
export interface EventEnvelope<K extends EventName = EventName> {
  type: K;
  timestamp: string;
  payload: EventPayload<K>;
}
type Listener<K extends EventName> = (payload: EventPayload<K>, envelope: EventEnvelope<K>) => void | Promise<void>;
/** what an onAny listener (the realtime relay) sees: any declared event */
export interface AnyEventEnvelope {
  type: string;
  timestamp: string;
  payload: unknown;
}
type AnyListener = (envelope: AnyEventEnvelope) => void | Promise<void>;

export class EventBus {
  private readonly listeners = new Map<string, Set<Listener<any>>>();
  private readonly anyListeners = new Set<AnyListener>();
  private readonly declared = new Set<string>();
  private readonly pending = new Set<Promise<unknown>>();

  constructor(
    private readonly onListenerError: (event: string, err: unknown) => void = () => {},
    private readonly now: () => Date = () => new Date(),
  ) {}

  declare(...names: EventName[]): void {
    for (const n of names) this.declared.add(n);
  }

  declaredEvents(): string[] {
    return [...this.declared].sort();
  }

  on<K extends EventName>(type: K, listener: Listener<K>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener);
    return () => set!.delete(listener);
  }

  onAny(listener: AnyListener): () => void {
    this.anyListeners.add(listener);
    return () => this.anyListeners.delete(listener);
  }

  /** Emits without waiting for listeners; returns a promise that settles when all of them have. */
  emit<K extends EventName>(type: K, payload: EventPayload<K>): Promise<void> {
    const envelope: EventEnvelope<K> = { type, timestamp: this.now().toISOString(), payload };
    const runs: Promise<unknown>[] = [];
    for (const l of this.listeners.get(type) ?? []) runs.push(this.isolate(type, () => l(payload, envelope)));
    for (const l of this.anyListeners) runs.push(this.isolate(type, () => l(envelope)));
    const all = Promise.all(runs).then(() => undefined);
    this.pending.add(all);
    void all.finally(() => this.pending.delete(all));
    return all;
  }

  /** Waits for every listener started so far (used at shutdown and in tests). */
  async idle(): Promise<void> {
    while (this.pending.size) await Promise.all([...this.pending]);
  }

  private isolate(type: string, fn: () => void | Promise<void>): Promise<void> {
    return Promise.resolve()
      .then(fn)
      .catch((err) => this.onListenerError(type, err));
  }
}
