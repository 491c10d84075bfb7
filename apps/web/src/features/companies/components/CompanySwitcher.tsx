import { Select } from '@mantine/core';
import { COMPANY_SWITCH_REFRESH_DELAY_MS } from '@switchboard/domain';
import { IconBuilding } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { companyKey } from '../../../lib/query-client';
import { selectCompany, useSession } from '../../../lib/session';
import { companiesQueryOptions, useCompanies } from '../api/get-companies';

/**
 * Company switcher (foundation §4): switching drops the previous company's cached lists and, after
 * COMPANY_SWITCH_REFRESH_DELAY_MS (150 ms), refreshes company-related data.
 */
export function CompanySwitcher() {
  const queryClient = useQueryClient();
  const session = useSession();
  const companies = useCompanies();
  const list = companies.data?.data ?? session.user?.companies ?? [];

  const onChange = (value: string | null) => {
    const next = Number(value);
    if (!value || next === session.companyId) return;
    const previous = session.companyId;
    selectCompany(next);
    queryClient.removeQueries({ queryKey: companyKey(previous) });
    setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: companiesQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: companyKey(next) });
    }, COMPANY_SWITCH_REFRESH_DELAY_MS);
  };

  return (
    <Select
      aria-label="Company"
      data-testid="company-switcher"
      leftSection={<IconBuilding size={16} />}
      data={list.map((c) => ({ value: String(c.id), label: c.name }))}
      value={session.companyId === null ? null : String(session.companyId)}
      onChange={onChange}
      allowDeselect={false}
      w={220}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
