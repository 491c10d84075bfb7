import { useCompanyNumbers } from '../../features/numbers/api/get-numbers';
import { SimulatorPage } from '../../features/simulator/components/SimulatorPage';
import { RequireAbility } from '../../components/RequireAbility';

/** Composes the simulator with the company's numbers (features don't import each other). */
export function SimulatorRoute() {
  return (
    <RequireAbility ability="numbers.read" title="Phone simulator">
      <Simulator />
    </RequireAbility>
  );
}

function Simulator() {
  const numbers = useCompanyNumbers();
  return <SimulatorPage numbers={numbers.data?.data} loading={numbers.isPending} />;
}
