import { createServiceRef } from '@basin/core';
import type { Catalog } from './service.js';

/** The public face of the catalog plugin (`@basin/plugin-catalog/contract`). */
export type { Catalog } from './service.js';
export type { CatalogNode, Layer } from './graph.js';
export type { TableProfile, ColumnProfile } from './profile.js';

/** the catalog of raw tables and dbt models (graph, lineage, search, profiles) */
export const catalogRef = createServiceRef<Catalog>({ id: 'catalog' });
