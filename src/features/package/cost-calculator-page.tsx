import { CostCalculator } from './cost-calculator.tsx';

/** /costCalculator: the cost calculator on a phone (full width up to 540 px). */
export default function CostCalculatorPage() {
  return <CostCalculator isPhone />;
}
