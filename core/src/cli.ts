import path from 'node:path';
import { Command, CommanderError, Help } from 'commander';
import { BASIN_VERSION, createApp, loadPlugins, type BasinApp, type BootOptions } from './app.js';
import { ConfigLoadError, formatIssue } from './config/loader.js';
import { orderPlugins } from './plugin/order.js';
import { commandPackage, PROGRAM_DESCRIPTION, PROGRAM_EPILOGUE } from './cli-entry.js';
import { importPackage } from './plugin/discovery.js';
import type { BasinPlugin, CliContext } from './plugin/types.js';

/** Exit codes scripts can rely on. */
export const EXIT = { ok: 0, failure: 1, config: 2 } as const;

/** An error a command raises to end with a message and an exit code, without a stack trace. */
export class CliExit extends Error {
  constructor(readonly code: number, message = '') {
    super(message);
  }
}

function projectFromArgv(argv: string[]): string {
  const i = argv.indexOf('--project');
  if (i >= 0 && argv[i + 1]) return path.resolve(argv[i + 1]!);
  const eq = argv.find((a) => a.startsWith('--project='));
  return path.resolve(eq ? eq.slice('--project='.length) : process.cwd());
}

/**
 * The `basin` program with the commands of `plugins`. `bootPlugins` gives the plugin set a command
 * boots the project with when that is more than the plugins whose commands are listed (runCli lists
 * only the plugin that owns the command being run).
 */
export function buildProgram(plugins: BasinPlugin[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process, bootPlugins?: () => Promise<BasinPlugin[]>): Command {
  const program = new Command('basin')
    .description(PROGRAM_DESCRIPTION)
    .version(BASIN_VERSION, '-v, --version')
    .showHelpAfterError()
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    // set before plugins add commands, so subcommands inherit it and never call process.exit
    .exitOverride()
    .addHelpText('after', PROGRAM_EPILOGUE);
  const ctx: CliContext = {
    program,
    stdout: io.stdout,
    stderr: io.stderr,
    boot: async (opts: Partial<BootOptions> & { projectDir: string }): Promise<BasinApp> =>
      createApp({ plugins: bootPlugins ? await bootPlugins() : plugins, notice: (m) => io.stdout.write(`${m}\n`), launchedByCli: true, ...opts }),
  };
  // registered in dependency order, listed in discovery order: the order `basin --help` prints from
  // the manifests without importing any plugin (cli-entry.ts)
  for (const p of bootPlugins ? plugins : orderPlugins(plugins)) {
    p.commands?.(ctx);
    for (const c of program.commands) if (!commandOwner.has(c)) commandOwner.set(c, p);
  }
  (program.commands as Command[]).sort((a, b) => plugins.indexOf(commandOwner.get(a)!) - plugins.indexOf(commandOwner.get(b)!));
  return program;
}

/** which plugin added each top-level command */
const commandOwner = new WeakMap<Command, BasinPlugin>();

/**
 * Each plugin's top-level commands as `basin --help` lists them (`{"<term>": "<description>"}`): what its
 * package.json `basin.commands` manifest must say (test/cli-manifest.test.ts; scripts/cli-manifests.mjs writes them).
 */
export function commandManifests(plugins: BasinPlugin[]): Map<BasinPlugin, Record<string, string>> {
  const program = buildProgram(plugins, { stdout: process.stdout, stderr: process.stderr });
  const help = new Help();
  const out = new Map<BasinPlugin, Record<string, string>>(plugins.map((p) => [p, {}]));
  for (const c of program.commands) out.get(commandOwner.get(c)!)![help.subcommandTerm(c)] = c.description();
  return out;
}

/** Entry point of the `basin` binary. Returns the exit code. */
export async function runCli(argv: string[], io: { stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream } = process): Promise<number> {
  const projectDir = projectFromArgv(argv);
  let plugins: BasinPlugin[];
  // a command its plugin's manifest declares imports that plugin alone; the rest load if it boots the project
  const owner = commandPackage(argv, projectDir);
  try {
    plugins = owner ? [await importPackage<BasinPlugin>(owner)] : await loadPlugins(projectDir);
  } catch (e) {
    io.stderr.write(`basin: ${(e as Error).message}\n`);
    return EXIT.failure;
  }
  const program = buildProgram(plugins, io, owner ? () => loadPlugins(projectDir) : undefined);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return EXIT.ok;
  } catch (e) {
    // a usage error (unknown option, missing argument) is exit 2, like a config error
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.config;
    if (e instanceof CliExit) {
      if (e.message) io.stderr.write(`${e.message}\n`);
      return e.code;
    }
    if (e instanceof ConfigLoadError) {
      io.stderr.write(`basin: the project configuration is invalid:\n${e.issues.map((i) => `  ${formatIssue(i)}`).join('\n')}\n`);
      return EXIT.config;
    }
    io.stderr.write(`basin: ${(e as Error).message}\n`);
    return EXIT.failure;
  }
}
