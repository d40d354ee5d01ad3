/**
 * dbt-core as every adapter venv pins it. dbt-core 1.12.1+ needs dbt-core-experimental-parser >=
 * 2.0.0b1, whose PyPI releases are source archives that download a wheel from GitHub while building
 * (no network but the registries here); 2.0.0a4 is the newest with a wheel on PyPI and dbt-core 1.12.0
 * the newest 1.12 that accepts it. Install with `--only-binary dbt-core-experimental-parser`.
 */
export const DBT_CORE_REQUIREMENTS = ['dbt-core==1.12.0', 'dbt-core-experimental-parser==2.0.0a4'] as const;
