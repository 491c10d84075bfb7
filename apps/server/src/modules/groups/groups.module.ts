/**
 * Transitional: groups and labels are part of the contacts module, whose entry
 * (`contacts/contacts.module.ts`) registers their routes. Empty until `modules/registry.ts` stops
 * listing it; then this folder goes.
 */
import type { ModuleEntry } from '../../platform/module.js';

export const groupsModule: ModuleEntry[] = [];
