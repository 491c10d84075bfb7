/** The audit feature (docs/audit.md): the /audit-log screen. */
export { AuditLogPage } from './components/AuditLogPage';
