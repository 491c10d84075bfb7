import { useCompanyNumbers } from '../../features/numbers/api/get-numbers';
import { SimulatorPage } from '../../features/simulator/components/SimulatorPage';

/** Composes the simulator with the company's numbers (features don't import each other). */
export function SimulatorRoute() {
  const numbers = useCompanyNumbers();
  return <SimulatorPage numbers={numbers.data?.data} loading={numbers.isPending} />;
}
