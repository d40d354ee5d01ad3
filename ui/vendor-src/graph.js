// dagre lays out the lineage graph (catalog)
export { default as dagre } from '@dagrejs/dagre';
