import { CostCalculator } from './cost-calculator.tsx';

/** /pcCostCalculator: the cost calculator on a computer. */
export default function PcCostCalculatorPage() {
  return <CostCalculator isPhone={false} />;
}
