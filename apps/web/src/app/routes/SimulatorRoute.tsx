import { useQuery } from '@tanstack/react-query';
import { numbersQueryOptions } from '../../features/numbers/api/get-numbers';
import { useNumberJobsLive } from '../../features/numbers/realtime/number-jobs';
import { SimulatorPage } from '../../features/simulator/components/SimulatorPage';
import { RequireAbility } from '../../components/RequireAbility';
import { useCompanyId } from '../../lib/session';

/** Composes the simulator with the company's numbers (features don't import each other). */
export function SimulatorRoute() {
  return (
    <RequireAbility ability="numbers.read" title="Phone simulator">
      <Simulator />
    </RequireAbility>
  );
}

/**
 * The simulator calls whatever the company owns right now (issue 23: numbers bought since, by a tracking pool, the
 * marketplace or another tab, were missing): the list is re-read on every visit and when the window regains focus,
 * and after a bulk purchase, release or update finishes.
 */
function Simulator() {
  useNumberJobsLive();
  const numbers = useQuery({ ...numbersQueryOptions(useCompanyId()), staleTime: 0, refetchOnMount: 'always', refetchOnWindowFocus: true });
  return <SimulatorPage numbers={numbers.data?.data} loading={numbers.isPending} />;
}
