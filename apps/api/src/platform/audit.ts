import type { Executor } from './db/client.js';
import { auditLog } from './db/schema.js';

export interface AuditEntry {
  clinicId: number | null;
  /** `api_key:<id>`, `cli`, `whatsapp_signup`, `shaam_auth`, … */
  actor: string;
  /** `<resource>.<verb>`, e.g. `caregiver.create`. */
  action: string;
  targetType?: string;
  targetId?: string | number;
  /** What changed: names and values a clinic needs to follow its data, never secrets or answers. */
  details?: Record<string, unknown>;
  at: Date;
}

/** Records a write; pass the write's transaction, so the entry exists exactly when the change does. */
export async function audit(executor: Executor, entry: AuditEntry): Promise<void> {
  await executor.insert(auditLog).values({
    clinicId: entry.clinicId,
    actor: entry.actor,
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId === undefined ? null : String(entry.targetId),
    details: entry.details ?? {},
    createdAt: entry.at,
  });
}
