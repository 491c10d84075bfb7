/** The audit module's entry: the audit log: who changed what, when and from where (append-only; docs/audit.md). See `platform/module.ts`. */
import type { ModuleEntry } from '../../platform/module.js';
import { registerAuditRoutes } from './audit.routes.js';

export const auditModule: ModuleEntry[] = [{ name: 'audit', routes: registerAuditRoutes }];
