import fs from 'node:fs';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { PROJECT_FILE, writeFileAtomic } from '@basin/core';

/**
 * Replaces the `warehouse` section of .basin/project.yml, keeping every other line and comment, by
 * writing a temp file and renaming it over the old one: a crash leaves the old or the new file.
 */
export function switchWarehouseSection(projectDir: string, section: Record<string, unknown>): void {
  const file = path.join(projectDir, PROJECT_FILE);
  const doc = parseDocument(fs.readFileSync(file, 'utf8'));
  doc.set('warehouse', doc.createNode(section));
  writeFileAtomic(file, doc.toString());
}
