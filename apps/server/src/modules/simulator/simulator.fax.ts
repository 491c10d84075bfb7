/**
 * The Phone simulator's fax machine (docs/fax.md "Sandbox"; only with a simulated fax provider):
 * `POST /api/simulator/faxes` (multipart: from, to, file = a PDF) → `{fax_id, webhook_status}`.
 * An outside fax machine sends the PDF to `to`, a fax number of one of the signed-in user's
 * companies (an operator may reach every number); the simulated provider calls our fax webhook,
 * and the fax arrives like a real one (fax list, inbox thread, activity).
 */
import { SimulateFaxBody, SimulateFaxFields, errorResponses } from '@switchboard/contracts';
import { parsePhone } from '@switchboard/domain';
import type { z } from 'zod';
import type { AppContext } from '../../context.js';
import { requireAuth } from '../../platform/auth/auth.plugin.js';
import { access } from '../../platform/http/access.js';
import type { App } from '../../platform/http/app-type.js';
import { ValidationError, fieldError, type FieldErrors } from '../../platform/http/errors.js';
import { readMultipart } from '../../platform/http/multipart.js';
import { isOperator } from '../auth/operators.js';
import { listUserCompanies } from '../companies/companies.service.js';
import { faxPort, simulateInboundFax } from '../fax/fax.service.js';
import { findNumberByE164 } from '../numbers/numbers.service.js';

function zodFieldErrors(error: z.ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) (errors[issue.path.join('.') || 'body'] ??= []).push(issue.message);
  return errors;
}

/** Registers the simulator's fax route when the fax provider can simulate. */
export function registerSimulatorFaxRoutes(app: App, ctx: AppContext): void {
  if (!faxPort(ctx).simulateInbound) return;
  app.post(
    '/api/simulator/faxes',
    {
      config: { access: access.signedIn() },
      schema: {
        tags: ['simulator'],
        summary: 'An outside fax machine sends a PDF to a fax number (multipart: from, to, file)',
        response: { 200: SimulateFaxBody, ...errorResponses },
      },
    },
    async (req) => {
      const { userId } = requireAuth(req);
      if (!req.isMultipart()) throw new ValidationError({ file: ['The request must be multipart/form-data with the PDF in file.'] });
      const form = await readMultipart(req, { fileFields: ['file'] });
      const parsed = SimulateFaxFields.safeParse(form.fields);
      if (!parsed.success) throw new ValidationError(zodFieldErrors(parsed.error));
      const from = parsePhone(parsed.data.from);
      if (!from) throw fieldError('from', 'The number is not a valid phone number.');
      const to = parsePhone(parsed.data.to);
      if (!to) throw fieldError('to', 'The number is not a valid phone number.');
      const number = await findNumberByE164(ctx, to);
      // Another company's number answers like an unknown one: nothing is revealed.
      const mine = number && ((await isOperator(ctx, userId)) || (await listUserCompanies(ctx, userId)).some((c) => c.id === number.company_id));
      if (!number || !mine) throw fieldError('to', 'This number is not served by the sandbox carrier.');
      return simulateInboundFax(ctx, { from, to: number, file: form.files[0] });
    },
  );
}
