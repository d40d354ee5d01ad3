import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { PROJECT_FILE, type BasinConfig } from '@basin/core';
import { AuthSection, CLOUD_SESSION_DEFAULTS } from './config.js';

/** Partial (2FA pending) sessions live 5 minutes (SPEC). */
export const PARTIAL_SESSION_MS = 5 * 60_000;
/** Invite, reset and setup links live 72 hours (DECISIONS: spec leaves it open). */
export const TOKEN_LIFETIME_MS = 72 * 3600_000;

/**
 * The auth section as it applies: a cloud deployment uses 60 min idle / 30 days absolute unless the
 * project sets those keys itself (the loaded section already carries the local defaults, so the raw file decides).
 */
export function effectiveAuthSettings(config: Pick<BasinConfig, 'section' | 'platform' | 'projectDir'>): AuthSection {
  const s = { ...(config.section<AuthSection>('auth') ?? ({} as AuthSection)) };
  if (config.platform?.deployment === 'cloud') {
    const raw = rawAuthSection(config.projectDir);
    for (const k of ['idle_timeout_minutes', 'session_max_days'] as const) {
      if (raw[k] === undefined) s[k] = CLOUD_SESSION_DEFAULTS[k];
    }
  }
  return s;
}

function rawAuthSection(projectDir: string): Record<string, unknown> {
  try {
    const doc = parse(fs.readFileSync(path.join(projectDir, PROJECT_FILE), 'utf8'));
    return (doc?.auth ?? {}) as Record<string, unknown>;
  } catch {
    return {};
  }
}
