import type { AwilixContainer } from 'awilix';
import type { Command } from 'commander';
import type { FastifyInstance } from 'fastify';
import type { ConfigFileSpec, ConfigSectionSpec } from '../config/types.js';
import type { BasinConfig } from '../config/service.js';
import type { PermissionSpec } from '../rbac.js';
import type { EventBus } from '../events.js';
import type { RouteRegistrar } from '../http/routes.js';
import type { Clock } from '../clock.js';
import type { Logger } from '../logger.js';
import type { BasinApp, BootOptions } from '../app.js';
import type { ExtensionPoint, ServiceRef } from './refs.js';
import type { DoctorCheck, DoctorContext } from '../cli-kit/doctor.js';
import type { CatalogedError } from '../error-catalogue.js';

export interface UiPage {
  path: string;
  title: string;
  /** URL of an ES module whose default export is a preact component rendering the page */
  module?: string;
  /** or: absolute path of such a module file; the web plugin serves it */
  file?: string;
  /** permission needed to see the nav entry */
  permission?: string;
  nav?: boolean;
  /** the navigation group it is listed under (Data, Operate, Settings...); default Extensions */
  section?: string;
  /** position within its section (lower first) */
  order?: number;
  /** 'bare' pages (login, setup, invite) render without the navigation */
  layout?: 'app' | 'bare';
}

export type HealthContributor = () => Promise<Record<string, unknown>> | Record<string, unknown>;
export interface CompanionStatus {
  name: string;
  state: 'running' | 'stopped' | 'not_installed' | 'starting' | 'error' | 'ok' | 'unavailable';
  url?: string;
  detail?: string;
  [k: string]: unknown;
}
export type StatusContributor = () => Promise<CompanionStatus> | CompanionStatus;

export interface PluginContext {
  readonly name: string;
  readonly container: AwilixContainer;
  readonly config: BasinConfig;
  readonly events: EventBus;
  readonly routes: RouteRegistrar;
  readonly clock: Clock;
  readonly log: Logger;
  /** the root fastify instance, for hooks that must see every request (auth, rate limits) */
  readonly http: FastifyInstance;
  /** registers the implementation of a service ref (usually one from this plugin's contract) */
  provide<T>(ref: ServiceRef<T>, impl: T): void;
  /** a service some plugin (or core) provides; throws when none does */
  resolve<T>(ref: ServiceRef<T>): T;
  /** like resolve, but undefined when no plugin provides it (for optional integrations) */
  tryResolve<T>(ref: ServiceRef<T>): T | undefined;
  /** registers the implementation of an extension point this plugin owns */
  provideExtensionPoint<T>(point: ExtensionPoint<T>, impl: T): void;
  /** another plugin's extension point, or undefined when its owner is not installed (register after it: optionalDependsOn) */
  extensionPoint<T>(point: ExtensionPoint<T>): T | undefined;
  page(page: UiPage): void;
  /** codes this plugin's global hooks may answer any route with (for the OpenAPI document), optionally only for some methods */
  errorsOnEveryRoute(errors: CatalogedError[], methods?: string[]): void;
  health(contributor: HealthContributor): void;
  status(contributor: StatusContributor): void;
  /** runs once every plugin has registered, while routes can still be added (e.g. to route what others contributed) */
  afterRegister(fn: () => void | Promise<void>): void;
  /** runs after every plugin registered and the server is ready (start watchers, schedulers) */
  onStart(fn: () => Promise<void> | void): void;
  /** runs at shutdown, in reverse plugin order */
  onStop(fn: () => Promise<void> | void): void;
  /** a message for the person at the terminal: a CLI command prints it; otherwise it goes to the log */
  notice(message: string): void;
  /** booted by a `basin` command (a one-shot command, or `basin start` once onStart has run) rather than embedded (tests) */
  readonly launchedByCli: boolean;
}

export interface CliContext {
  readonly program: Command;
  /** boots the app for a project (without listening) for commands that need services */
  boot(opts: Partial<BootOptions> & { projectDir: string }): Promise<BasinApp>;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

export interface BasinPlugin {
  name: string;
  version?: string;
  /** plugins that must register first; missing one stops start-up */
  dependsOn?: string[];
  /** plugins registered first when present */
  optionalDependsOn?: string[];
  permissions?: PermissionSpec[];
  configFiles?: ConfigFileSpec[];
  configSections?: ConfigSectionSpec[];
  /** runs before the project's config is loaded and validated (e.g. to load project-listed packages whose schemas validation needs) */
  prepare?(projectDir: string): void | Promise<void>;
  /** CLI commands; called without a project loaded */
  commands?(cli: CliContext): void;
  /** checks `basin doctor` runs (venvs, credentials...); called without booting the project */
  doctor?(ctx: DoctorContext): Promise<DoctorCheck[]> | DoctorCheck[];
  register?(ctx: PluginContext): void | Promise<void>;
}

export function definePlugin<P extends BasinPlugin>(plugin: P): P {
  return plugin;
}
