import { asFunction, asValue, ManualClock, type BasinApp, type BasinPlugin, type Resolver } from '@basin/core';
import { bootApp, disableAuth, makeProject } from '@basin/test';
import sources from '@basin/plugin-sources';
import notifications from '@basin/plugin-notifications';
import realtime from '@basin/plugin-realtime';
import scheduler from '../src/index.js';
import type { Scheduler } from '../src/scheduler.js';
import { FakeSyncEngine, FakeTxRunner } from './fakes.js';

export const SOURCES_YML = `version: "1.0"
sources:
  - name: orders
    type: csv
    csv: { directory: data/orders }
  - name: customers
    type: csv
    csv: { directory: data/customers }
  - name: events
    type: csv
    csv: { directory: data/events }
`;

export interface Booted {
  app: BasinApp;
  dir: string;
  clock: ManualClock;
  sched: Scheduler;
  sync: FakeSyncEngine;
  tx: FakeTxRunner;
}

/** Boots sources + scheduler + notifications + realtime with fake engines and a manual clock (auth disabled). */
export async function bootScheduler(
  schedulesYml: string,
  opts: { dir?: string; clock?: ManualClock; files?: Record<string, string>; plugins?: BasinPlugin[]; auth?: boolean; overrides?: Record<string, Resolver<unknown>> } = {},
): Promise<Booted> {
  const dir = opts.dir ?? makeProject({ '.basin/sources.yml': SOURCES_YML, '.basin/schedules.yml': schedulesYml, ...opts.files });
  if (!opts.dir && !opts.auth) disableAuth(dir);
  const clock = opts.clock ?? new ManualClock('2026-03-02T05:00:00Z');
  const tx = new FakeTxRunner();
  const app = await bootApp(dir, {
    clock,
    plugins: opts.plugins ?? [sources, scheduler, notifications, realtime],
    overrides: {
      syncEngine: asFunction(({ events }) => new FakeSyncEngine(events, clock)).singleton(),
      txRunner: asValue(tx),
      ...opts.overrides,
    },
  });
  return { app, dir, clock, sched: app.container.resolve<Scheduler>('scheduler'), sync: app.container.resolve<FakeSyncEngine>('syncEngine'), tx };
}
