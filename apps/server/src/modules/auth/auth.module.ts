/** The auth module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { registerAdminLoginRoutes } from './admin-login.routes.js';
import { ADMIN_SESSION_END_JOB, recordAdminSessionExpiry, type AdminSessionEndJob } from './admin-login.service.js';
import { registerAuthRoutes } from './auth.routes.js';
import { registerMfaSmsRoutes } from './mfa-sms.routes.js';
import { registerOidcRoutes } from './oidc.routes.js';

/** Sign-in, MFA, password reset, signup (auth.routes) admin mode (admin-login.routes) and MFA by SMS (mfa-sms.routes). */
async function routes(app: App, ctx: AppContext): Promise<void> {
  registerAuthRoutes(app, ctx);
  registerAdminLoginRoutes(app, ctx);
  registerMfaSmsRoutes(app, ctx);
  registerOidcRoutes(app, ctx);
}

/** The job that records an admin session's end when its hour runs out (docs/audit.md "Admin mode"). */
function jobs(ctx: AppContext): void {
  ctx.queue.define<AdminSessionEndJob>(ADMIN_SESSION_END_JOB, (data) => recordAdminSessionExpiry(ctx, data), 1);
}

export const authModule: ModuleEntry[] = [{ name: 'auth', routes, jobs }];
