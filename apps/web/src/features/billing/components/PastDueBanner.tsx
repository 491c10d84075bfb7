/**
 * The past-due banner of the app shell (spec 001 §8 "Past-due account": "Your account has an outstanding balance of"
 * the amount, with the instruction to update payment info to reactivate). Shown only to people who may see billing
 * (`billing.read`), with a link to the billing page.
 */
import { Alert, Anchor } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useCan } from '../../../lib/access';
import { useCompanyBilling } from '../api/billing';

export function PastDueBanner() {
  const allowed = useCan('billing.read');
  const billing = useCompanyBilling(allowed);
  if (!allowed || !billing.data?.pastDue || !billing.data.pastDueMessage) return null;
  return (
    <Alert color="red" icon={<IconAlertTriangle />} mb="md" role="alert" title="Payment past due" data-testid="past-due-banner">
      {billing.data.pastDueMessage}{' '}
      <Anchor component={Link} to="/billing">
        Update payment information
      </Anchor>
    </Alert>
  );
}
