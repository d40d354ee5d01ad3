// The companion venvs as a project on a server warehouse needs them (issue 22): Superset's and marimo's
// own venvs with the SQLAlchemy drivers of both server backends added (psycopg2-binary, trino[sqlalchemy];
// marimo also SQLAlchemy). Same folders as the DuckDB venvs: the drivers are a few MB on top, and the
// venvs stay ready for DuckDB. Run by the setup steps bi-server-drivers and notebooks-server-drivers.
import { supersetVenvFor } from '../../plugins/bi/src/venv.js';
import { marimoVenvFor } from '../../plugins/notebooks/src/venv.js';
import { POSTGRES_SQLALCHEMY_DRIVERS } from '../../plugins/warehouse-postgres/src/client.js';
import { TRINO_SQLALCHEMY_DRIVERS } from '../../plugins/warehouse-trino/src/client.js';

const drivers = [...POSTGRES_SQLALCHEMY_DRIVERS, ...TRINO_SQLALCHEMY_DRIVERS];

export const supersetServerVenv = supersetVenvFor(drivers);
export const marimoServerVenv = marimoVenvFor(drivers);
