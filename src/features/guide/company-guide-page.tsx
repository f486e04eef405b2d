import { COMPANY_STEPS, GuideSteps } from './guide-steps.tsx';

/** /pc/guide/company */
export default function CompanyGuidePage() {
  return <GuideSteps title="companyTitle" intro="companyIntro" steps={COMPANY_STEPS} />;
}
