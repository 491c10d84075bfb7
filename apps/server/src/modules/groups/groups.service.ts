/**
 * Transitional re-export: groups and labels are part of the contacts module
 * (`modules/contacts/groups.service.ts`). Import from there; this file goes once no caller is left.
 */
export * from '../contacts/groups.service.js';
