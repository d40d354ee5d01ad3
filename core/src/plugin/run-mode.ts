// How this process loads packages, asked wherever a built ES module could be require()d instead of
// imported (the prebuilt plugins, source packages on first use).

/** Whether it runs the TypeScript sources: a tsx loader or the `development` condition (tests, BASIN_DEV). */
export function runsTypeScriptSources(): boolean {
  const flags = `${process.execArgv.join(' ')} ${process.env.NODE_OPTIONS ?? ''}`;
  return /\btsx\b|development/.test(flags);
}

/** Whether this Node can require() an ES module (20.19+), from the same module map `import` uses. */
export function canRequireEsModules(): boolean {
  return (process.features as { require_module?: boolean }).require_module === true;
}
