/** The auth module's entry: its routes, jobs and setup (see `platform/module.ts`). */
import type { ModuleEntry } from '../../platform/module.js';
import type { App } from '../../platform/http/app-type.js';
import type { AppContext } from '../../context.js';
import { registerAdminLoginRoutes } from './admin-login.routes.js';
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

export const authModule: ModuleEntry[] = [{ name: 'auth', routes }];
