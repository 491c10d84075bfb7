/**
 * What a module gives the app (architecture: modules, one way in). Each module folder has a
 * `<name>.module.ts` exporting one `ModuleEntry`; `modules/registry.ts` lists them in order.
 */
import type { AppContext } from '../context.js';
import type { App } from './http/app-type.js';

export type ModuleEntry = {
  name: string;
  /** HTTP routes (API, webhooks) on the app. */
  routes?: (app: App, ctx: AppContext) => void | Promise<void>;
  /** pg-boss job handlers. */
  jobs?: (ctx: AppContext) => void;
  /** Module setup, run once per app before any route: subscribes the module to the domain events it reacts to, registers its hooks (idempotent). */
  setup?: (ctx: AppContext) => void;
};
