import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import type { CurrentUser } from '@switchboard/contracts';
import { COMPANY_SWITCH_REFRESH_DELAY_MS } from '@switchboard/domain';
import { IconBuilding } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { http } from '../../../lib/http';
import { companyKey } from '../../../lib/query-client';
import { selectCompany, updateUser, useSession } from '../../../lib/session';
import { companiesQueryOptions, useCompanies } from '../api/get-companies';
import { useCompaniesSlim } from '../api/get-companies-slim';

/**
 * Company switcher (foundation §4; docs/accounts.md "Company switcher"): every company the person
 * reaches, searched on the server 100 at a time (`/api/companies/slim`), grouped by organization.
 * Switching drops the previous company's cached lists and, after COMPANY_SWITCH_REFRESH_DELAY_MS
 * (150 ms), refreshes company-related data and the person's roles.
 */
export function CompanySwitcher() {
  const queryClient = useQueryClient();
  const session = useSession();
  const companies = useCompanies();
  const [search, setSearch] = useState('');
  const [opened, setOpened] = useState(false);
  const [debounced] = useDebouncedValue(search.trim(), 250);
  const current = companies.data?.data.find((c) => c.id === session.companyId) ?? session.user?.companies.find((c) => c.id === session.companyId);
  // While the list is closed the search box shows the current name: do not search for it.
  const slim = useCompaniesSlim(opened && debounced !== current?.name ? debounced : '', opened);

  const data = useMemo(() => {
    const rows =
      slim.data?.data ??
      (companies.data?.data ?? session.user?.companies ?? []).map((c) => ({ id: c.id, name: c.name, organization_name: null as string | null }));
    const groups = new Map<string, Array<{ value: string; label: string }>>();
    for (const c of rows) {
      const key = c.organization_name ?? 'Accounts';
      groups.set(key, [...(groups.get(key) ?? []), { value: String(c.id), label: c.name }]);
    }
    if (current && !rows.some((c) => c.id === current.id)) groups.set('Current', [{ value: String(current.id), label: current.name }]);
    return [...groups.entries()].map(([group, items]) => ({ group, items }));
  }, [slim.data, companies.data, session.user, current]);
  const total = slim.data?.meta.total ?? 0;

  const onChange = (value: string | null) => {
    const next = Number(value);
    if (!value || next === session.companyId) return;
    const previous = session.companyId;
    selectCompany(next);
    queryClient.removeQueries({ queryKey: companyKey(previous) });
    setTimeout(() => {
      void queryClient.invalidateQueries({ queryKey: companiesQueryOptions().queryKey });
      void queryClient.invalidateQueries({ queryKey: companyKey(next) });
      // The role in the new company (an account reached since sign-in is not in the session yet).
      void http.get<CurrentUser>('/api/user').then(updateUser);
    }, COMPANY_SWITCH_REFRESH_DELAY_MS);
  };

  return (
    <Select
      aria-label="Company"
      data-testid="company-switcher"
      leftSection={<IconBuilding size={16} />}
      data={data}
      value={session.companyId === null ? null : String(session.companyId)}
      onChange={onChange}
      searchable
      searchValue={opened ? search : (current?.name ?? '')}
      onSearchChange={(v) => opened && setSearch(v)}
      onDropdownOpen={() => {
        setSearch('');
        setOpened(true);
      }}
      onDropdownClose={() => setOpened(false)}
      // The server filters; the list shows what it answered.
      filter={({ options }) => options}
      nothingFoundMessage={slim.isFetching ? 'Searching…' : 'No company matches'}
      aria-description={total > 100 ? `Showing 100 of ${total} companies: type to search` : undefined}
      allowDeselect={false}
      maxDropdownHeight={360}
      w={240}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
